#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The folders are the layers: includes and calls go down (issue 39).

Every file of the plugin and of what it is built on (gst/, step/, cuda/,
cpu/, common/), and of the viewer on top, lies in the folder of its layer; LAYERS below ranks the
folders, top first, as docs/architecture.md draws them.  A file is one
room with its header (gst/filter/gstaooctfilter.c and .h are one), and
from room A to room B there is an arrow when A includes a header of B
(`#include "name.h"`, read from the sources) or calls a function or uses
data that B defines (nm of the object files of the build).  It is an
error when

  - an arrow runs up: a room includes or calls one of a layer above its
    own (the buffer layer and the CUDA backend take what they need as
    arguments, the step contract knows no GStreamer);
  - rooms are tied in a circle (a strongly connected component of more
    than one room), also within one layer, unless KNOWN lists it as
    still to be cut (the list only shrinks: a known circle that is gone
    must be removed from it);
  - a file lies in no layer's folder (a new file in flat gst/, say): move
    it into the folder of its layer (docs/architecture.md, "Where a file
    goes": an element into gst/elements/) or give its folder a rank here.

  scripts/checks/check-layers.py BUILDDIR            check (exit 1 on an error)
  scripts/checks/check-layers.py --graph BUILDDIR    print every arrow
  scripts/checks/check-layers.py --self-test         the checker on made-up rooms

BUILDDIR is meson's build folder (its compile_commands.json names the
object of each source); the sources are those of this script's tree.
"""
import collections
import json
import os
import re
import subprocess
import sys

# The layers, top first: a folder (every file under it) or one file.  A
# room may include or call rooms of its own layer and of those below.
LAYERS = [
    ('viewer', 'aooct-view, the GTK program on the elements'),
    ('gst/plugin.c', 'the plugin: registers every element'),
    ('gst/scaleout', 'aooctbin, aooctsplit, aooctmerge: elements of elements'),
    ('gst/elements', 'one step each, their property groups, the group and '
     'view bases'),
    ('gst/filter', 'GstAooctFilter, the base class: negotiation'),
    ('gst/sources', 'the raw-frame sources and their file reading'),
    ('gst/backend', 'buffers and the CPU backend, the CUDA backend'),
    ('gst/support', 'caps, metas and helpers of every GStreamer layer'),
    ('step', 'the step contract (no GStreamer)'),
    ('cuda', 'the CUDA step cores'),
    ('cpu', 'the CPU step cores'),
    ('common', 'what both backends share (no GStreamer)'),
]

# the folders whose every file must have a rank
ROOTS = ['viewer', 'gst', 'step', 'cuda', 'cpu', 'common']
SOURCES = ('.c', '.h', '.cu', '.cuh')

# circles still to be cut, each as the sorted list of its rooms
KNOWN = [
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def rank_of(path, layers):
    """the index of @path's layer in @layers (the longest folder that
    holds it), or None"""
    best, blen = None, -1
    for i, (place, _) in enumerate(layers):
        if path == place or path.startswith(place + '/'):
            if len(place) > blen:
                best, blen = i, len(place)
    return best


def room(path):
    """a source and its header are one room: the path without its
    extension (x.c or x.cu with x.h); a header of device code that no
    source of its name defines (x.cuh) is a room of its own"""
    base, ext = os.path.splitext(path)
    return path if ext == '.cuh' else base


def source_files(root):
    out = []
    for top in ROOTS:
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(SOURCES):
                    out.append(os.path.relpath(os.path.join(d, f), root))
    return out


def include_arrows(root, files):
    """{(room A, room B): [header, ...]} for each quoted include of a file
    of @files that names another file of @files (by its folder first,
    then by its name: the build puts every such folder on the include
    path)"""
    by_name = collections.defaultdict(list)
    for f in files:
        by_name[os.path.basename(f)].append(f)
    arrows = collections.defaultdict(list)
    for f in files:
        with open(os.path.join(root, f), encoding='utf-8',
                  errors='replace') as fh:
            text = fh.read()
        for name in INCLUDE.findall(text):
            near = os.path.normpath(os.path.join(os.path.dirname(f), name))
            if near in files:
                target = near
            elif len(by_name.get(os.path.basename(name), [])) == 1:
                target = by_name[os.path.basename(name)][0]
            else:
                continue        # config.h, a system header, a test's
            if room(target) != room(f):
                arrows[(room(f), room(target))].append(
                    os.path.basename(name))
    return arrows


def objects(builddir, root, files):
    """{source file: object file} of the build, for the files of @files"""
    with open(os.path.join(builddir, 'compile_commands.json')) as fh:
        db = json.load(fh)
    out = {}
    for e in db:
        src = os.path.normpath(os.path.join(e['directory'], e['file']))
        rel = os.path.relpath(src, root)
        if rel in files and 'output' in e:
            out[rel] = os.path.join(e['directory'], e['output'])
    return out


def call_arrows(objs):
    """{(room A, room B): [symbol, ...]}: A uses a symbol that B alone
    defines (nm)"""
    defined, used = {}, {}
    for src, o in sorted(objs.items()):
        if not os.path.exists(o):
            continue
        out = subprocess.run(['nm', o], capture_output=True, text=True,
                             check=True).stdout
        d, u = set(), set()
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in 'TDBRV':
                d.add(f[2])
            elif len(f) == 2 and f[0] == 'U':
                u.add(f[1])
        defined[src], used[src] = d, u
    owners = collections.defaultdict(set)
    for src, d in defined.items():
        for s in d:
            owners[s].add(room(src))
    arrows = collections.defaultdict(list)
    for src, u in used.items():
        for s in sorted(u):
            o = owners.get(s, set())
            if len(o) == 1:
                (b,) = o
                if b != room(src):
                    arrows[(room(src), b)].append(s)
    return arrows


def circles(nodes, edges):
    """strongly connected components of more than one node (Tarjan)"""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    succ = collections.defaultdict(set)
    for a, b in edges:
        succ[a].add(b)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(out)


def judge(files, includes, calls, layers, known, built=None):
    """the error messages (@built: the rooms that have an object in this
    build, None for all: a known circle counts as gone only where all its
    rooms were built, and a part of it found is still the known one)"""
    msgs = []
    for f in files:
        if rank_of(f, layers) is None:
            msgs.append(
                '%s lies in no layer: move it into the folder of its layer '
                '(docs/architecture.md, "Where a file goes": an element '
                'into gst/elements/, a source into gst/sources/) or give '
                'its folder a rank in LAYERS of scripts/checks/check-layers.py'
                % f)
    rank = {room(f): rank_of(f, layers) for f in files}
    for kind, arrows in (('includes', includes), ('calls', calls)):
        for (a, b), names in sorted(arrows.items()):
            ra, rb = rank.get(a), rank.get(b)
            if ra is not None and rb is not None and rb < ra:
                msgs.append('%s %s %s (%s), a layer above it (%s above %s)'
                            % (a, kind, b, ', '.join(sorted(set(names))[:4]),
                               layers[rb][0], layers[ra][0]))
    found = circles(set(rank), set(includes) | set(calls))
    for comp in found:
        if not any(set(comp) <= set(k) for k in known):
            ties = ['%s -> %s' % e for e in sorted(set(includes) | set(calls))
                    if e[0] in comp and e[1] in comp]
            msgs.append('rooms tied in a circle: ' + ' '.join(comp) +
                        ' (' + ', '.join(ties) + ')')
    for comp in known:
        if built is not None and not set(comp) <= built:
            continue
        if comp not in found:
            msgs.append('the known circle ' + ' '.join(comp) + ' is gone '
                        '(or changed): update KNOWN in '
                        'scripts/checks/check-layers.py')
    return msgs


def self_test():
    layers = [('top', ''), ('mid', ''), ('low/a.c', ''), ('low', '')]
    assert rank_of('mid/x.c', layers) == 1
    assert rank_of('low/a.c', layers) == 2
    assert rank_of('low/b.h', layers) == 3
    assert rank_of('lowest/b.h', layers) is None
    files = ['top/t.c', 'mid/m.c', 'mid/m.h', 'low/a.c', 'low/b.c']
    down = {('top/t', 'mid/m'): ['m.h'], ('mid/m', 'low/b'): ['b.h']}
    assert judge(files, down, {}, layers, []) == []
    up = judge(files, {('low/b', 'mid/m'): ['m.h']}, {}, layers, [])
    assert len(up) == 1 and 'low/b includes mid/m' in up[0], up
    up = judge(files, {}, {('low/b', 'low/a'): ['f']}, layers, [])
    assert len(up) == 1 and 'calls low/a (f)' in up[0], up
    ring = {('mid/m', 'mid/n'): ['n.h'], ('mid/n', 'mid/m'): ['m.h']}
    msgs = judge(files + ['mid/n.c'], ring, {}, layers, [])
    assert len(msgs) == 1 and 'circle: mid/m mid/n' in msgs[0], msgs
    assert judge(files + ['mid/n.c'], ring, {}, layers,
                 [['mid/m', 'mid/n']]) == []
    gone = judge(files, {}, {}, layers, [['mid/m', 'mid/n']])
    assert len(gone) == 1 and 'is gone' in gone[0], gone
    # a build without mid/n's object: the known circle cannot be seen
    assert judge(files, {}, {}, layers, [['mid/m', 'mid/n']],
                 {'mid/m'}) == []
    # a part of a known circle found (its third room not built)
    assert judge(files + ['mid/n.c'], ring, {}, layers,
                 [['mid/m', 'mid/n', 'mid/o']], {'mid/m', 'mid/n'}) == []
    lost = judge(files + ['flat.c'], {}, {}, layers, [])
    assert len(lost) == 1 and 'flat.c lies in no layer' in lost[0], lost
    assert room('gst/a/b.c') == room('gst/a/b.h') == 'gst/a/b'
    assert room('cuda/k.cuh') == 'cuda/k.cuh'
    print('check-layers self-test: ok')
    return 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    graph = len(argv) == 3 and argv[1] == '--graph'
    if len(argv) != 2 and not graph:
        print(__doc__, file=sys.stderr)
        return 2
    builddir = os.path.abspath(argv[-1])
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    files = source_files(root)
    fileset = set(files)
    objs = objects(builddir, root, fileset)
    if not objs:
        print('no objects of ' + ', '.join(ROOTS) + ' in ' +
              builddir + '/compile_commands.json', file=sys.stderr)
        return 2
    includes = include_arrows(root, fileset)
    calls = call_arrows(objs)
    if graph:
        for kind, arrows in (('include', includes), ('call', calls)):
            for (a, b), names in sorted(arrows.items()):
                print('%s -> %s  %s %s' % (a, b, kind,
                                           ' '.join(sorted(set(names)))))
        return 0
    # built: the rooms compiled here, and those of headers alone
    sourced = {room(f) for f in files if f.endswith(('.c', '.cu'))}
    built = {room(f) for f in objs} | ({room(f) for f in files} - sourced)
    msgs = judge(files, includes, calls, LAYERS, KNOWN, built)
    for m in msgs:
        print(m)
    if not msgs:
        rooms = {room(f) for f in files}
        print('%d files in %d rooms on %d layers, %d include arrows and %d '
              'call arrows between rooms, none up the layers, no circle%s'
              % (len(files), len(rooms), len(LAYERS), len(includes),
                 len(calls), ' but the %d known' % len(KNOWN) if KNOWN
                 else ''))
    return 1 if msgs else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
