#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Where each microsecond of a buffer goes, from a trace of
tools/aooct-cupti-trace.c (scripts/gpu/gpu-timeline.sh makes one).

    scripts/gpu/gpu-timeline.py TRACE [--frame-bytes N] [--label TEXT]

A buffer is one host-to-device copy of the input frame (N bytes; by
default the most frequent copy size of 64 KiB or more).  Of the steady
state (the buffers between the 20th and 80th percentile of the run) it
prints, as markdown: the period per buffer; how busy the GPU's SMs (kernels
and memsets), the upload engine and the download engine were; the kernels
per buffer with their mean time; the idle gaps between kernels; and per
host thread, the CUDA calls per buffer with their host time and the time
it waited outside CUDA (GCond waits: queues, aooct's output ring and
readers; buffer pool acquires).
"""
import argparse
import collections
import statistics
import sys


def union_length(intervals, lo, hi):
    """Total length of the union of [s, e) clipped to [lo, hi)."""
    total, end = 0, lo
    for s, e in sorted(intervals):
        s, e = max(s, lo), min(e, hi)
        if e <= s:
            continue
        if s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


def gaps(intervals, lo, hi):
    """Idle stretches between the merged intervals inside [lo, hi)."""
    out, end = [], None
    for s, e in sorted(intervals):
        if e <= lo or s >= hi:
            continue
        if end is not None and s > end:
            out.append(s - end)
        end = e if end is None else max(end, e)
    return out


def short(name, width=60):
    name = name.split('(')[0]
    return name if len(name) <= width else name[:width - 3] + '...'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('trace')
    ap.add_argument('--frame-bytes', type=int, default=0)
    ap.add_argument('--label', default='')
    ap.add_argument('--sequence', action='store_true',
                    help='also list, in time order, what the GPU and the '
                    'host threads did during two periods of the steady '
                    'state')
    args = ap.parse_args()

    kern, copies, memsets, api = [], [], [], []
    with open(args.trace) as f:
        for line in f:
            p = line.split()
            if not p or p[0] == '#':
                continue
            s, e = int(p[1]), int(p[2])
            if p[0] == 'K':
                kern.append((s, e, int(p[3]), ' '.join(p[4:])))
            elif p[0] == 'C':
                copies.append((s, e, int(p[3]), int(p[4]), p[5]))
            elif p[0] == 'S':
                memsets.append((s, e, int(p[3]), int(p[4])))
            elif p[0] in 'RDW':
                # W: a host wait outside CUDA (GCond, buffer pool)
                api.append((s, e, int(p[3]), p[0] + ':' + p[4]))
    up = [c for c in copies if c[4] == 'HtoD']
    if not up:
        sys.exit('no upload in the trace')
    frame = args.frame_bytes or collections.Counter(
        c[3] for c in up if c[3] >= 65536).most_common(1)[0][0]
    starts = sorted(c[0] for c in up if c[3] == frame)
    if len(starts) < 10:
        sys.exit('fewer than 10 uploads of %d bytes' % frame)
    a, b = len(starts) // 5, len(starts) * 4 // 5
    lo, hi = starts[a], starts[b]
    n = b - a
    win = hi - lo
    period = win / n

    def us(ns):
        return ns / 1000.0

    print('### %s' % (args.label or args.trace))
    print()
    print('%d buffers of %d bytes in the steady state (of %d), %.1f us per '
          'buffer' % (n, frame, len(starts), us(period)))
    print()
    sm = [(k[0], k[1]) for k in kern] + [(m[0], m[1]) for m in memsets]
    h2d = [(c[0], c[1]) for c in copies if c[4] == 'HtoD']
    d2h = [(c[0], c[1]) for c in copies if c[4] == 'DtoH']
    anyw = sm + h2d + d2h + [(c[0], c[1]) for c in copies
                             if c[4] not in ('HtoD', 'DtoH')]
    print('| what | busy, us per buffer | % of the period |')
    print('|---|---:|---:|')
    for label, iv in (('kernels and memsets (SMs)', sm),
                      ('uploads (HtoD engine)', h2d),
                      ('downloads (DtoH engine)', d2h),
                      ('anything on the GPU', anyw)):
        busy = union_length(iv, lo, hi)
        print('| %s | %.1f | %.0f %% |' % (label, us(busy / n),
                                           100.0 * busy / win))
    up_bytes = sum(c[3] for c in copies if c[4] == 'HtoD' and lo <= c[0] < hi)
    up_time = sum(c[1] - c[0] for c in copies
                  if c[4] == 'HtoD' and lo <= c[0] < hi)
    if up_time:
        print()
        print('uploads: %.1f GB/s while copying' % (up_bytes / up_time))
    g = gaps(sm, lo, hi)
    if g:
        print()
        print('SM idle gaps between kernels: %d per buffer, median %.1f us, '
              '%.1f us per buffer in all (gaps under 20 us: %.1f us)' % (
                  round(len(g) / n), us(statistics.median(g)),
                  us(sum(g) / n), us(sum(x for x in g if x < 20000) / n)))
    print()
    print('| kernel | per buffer | mean us | us per buffer |')
    print('|---|---:|---:|---:|')
    per = collections.defaultdict(list)
    for s, e, st, name in kern:
        if lo <= s < hi:
            per[short(name)].append(e - s)
    for name, d in sorted(per.items(), key=lambda x: -sum(x[1])):
        print('| `%s` | %.2f | %.1f | %.1f |' % (name, len(d) / n,
                                                us(statistics.mean(d)),
                                                us(sum(d) / n)))
    for kind in ('HtoD', 'DtoH', 'DtoD'):
        d = [c[1] - c[0] for c in copies if c[4] == kind and lo <= c[0] < hi]
        if d:
            print('| copy %s | %.2f | %.1f | %.1f |' % (
                kind, len(d) / n, us(statistics.mean(d)), us(sum(d) / n)))
    threads = collections.defaultdict(list)
    for s, e, t, name in api:
        if lo <= s < hi:
            threads[t].append((s, e, name))
    for t, calls in sorted(threads.items(), key=lambda x: -len(x[1])):
        if len(calls) < n:
            continue
        # R: runtime calls, D: driver calls (a runtime call's own driver
        # calls are inside it; cuFFT launches through the driver); W: waits
        busy = union_length([(s, e) for s, e, nm in calls
                             if not nm.startswith('W:')], lo, hi)
        waited = union_length([(s, e) for s, e, nm in calls
                               if nm.startswith('W:')], lo, hi)
        print()
        print('host thread %d: %.1f us per buffer in CUDA calls (%.0f %% of '
              'the period), %.1f us waiting (GCond, buffer pool)' % (
                  t, us(busy / n), 100.0 * busy / win, us(waited / n)))
        print()
        print('| call | per buffer | mean us | us per buffer |')
        print('|---|---:|---:|---:|')
        by = collections.defaultdict(list)
        for s, e, nm in calls:
            by[nm].append(e - s)
        for nm, d in sorted(by.items(), key=lambda x: -sum(x[1]))[:14]:
            print('| `%s` | %.2f | %.2f | %.1f |' % (nm, len(d) / n,
                                                    us(statistics.mean(d)),
                                                    us(sum(d) / n)))
    print()
    if args.sequence:
        sequence(kern, copies, memsets, api, starts[(a + b) // 2], period)


def sequence(kern, copies, memsets, api, t0, period):
    """Every GPU activity and host CUDA call in [t0, t0 + 2 periods), in
    the order they began, with the gap since the same lane was last busy:
    whether the SMs wait for the host (a launch just before the kernel) or
    for another stream (an event), and what the host does meanwhile."""
    lo, hi = t0, t0 + 2 * period
    rows = []
    for s, e, st, name in kern:
        rows.append((s, e, 'SM', 'stream %d' % st, short(name, 44)))
    for s, e, st, nbytes, kind in copies:
        rows.append((s, e, kind, 'stream %d' % st, '%d bytes' % nbytes))
    for s, e, st, nbytes in memsets:
        rows.append((s, e, 'SM', 'stream %d' % st, 'memset %d bytes' % nbytes))
    for s, e, t, name in api:
        if name.startswith('D:') and not name.startswith('D:cuLaunch'):
            continue
        rows.append((s, e, 'thread %d' % (t % 10000), '', name))
    last = {}
    print('#### two periods from the upload of a steady-state buffer')
    print()
    print('| start us | length us | lane | idle before, us | stream | what |')
    print('|---:|---:|---|---:|---|---|')
    for s, e, lane, st, what in sorted(rows):
        if not (lo <= s < hi):
            last[lane] = max(last.get(lane, 0), e)
            continue
        idle = (s - last[lane]) / 1000.0 if lane in last else float('nan')
        last[lane] = max(last.get(lane, 0), e)
        print('| %.1f | %.1f | %s | %.1f | %s | `%s` |' % (
            (s - lo) / 1000.0, (e - s) / 1000.0, lane, idle, st, what))
    print()


if __name__ == '__main__':
    main()
