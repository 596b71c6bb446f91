#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Calls between the files of gst/ go one way (issue 32).

From the object files of the plugin (nm: the functions and data each file
defines and the ones it uses), the graph of "file A calls file B"; a group
of files that call each other in a loop (a strongly connected component of
more than one file) is an error, unless it is one of KNOWN below, a loop
still to be cut (none since issue 32; the list only shrinks: a known loop
that is gone must be removed from it).  The files of the base class also
call down the layers of docs/architecture.md ("The base class in layers"),
LAYERS below: a call from a file to one of a layer above it is an error
(the buffer layer and the CUDA backend take what they need as arguments;
one that reached back into the filter would call the files above).

  scripts/check-layers.py OBJDIR            check (exit 1 on a new loop)
  scripts/check-layers.py --graph OBJDIR    print every edge "A -> B"
  scripts/check-layers.py --self-test       the checker on a made-up graph
"""
import collections
import glob
import os
import subprocess
import sys

# loops still to be cut, each as the sorted list of its files
KNOWN = []

# the base class's layers, top first (docs/architecture.md); calls go down
# or stay within a layer (one way: no loops, above)
LAYERS = [
    # negotiation and properties: the GObject, its vfuncs
    ['gstaooctfilter.c', 'aooct-filter-caps.c', 'aooct-filter-allocation.c',
     'aooct-filter-cuda.c', 'aooct-filter-subclass.c', 'aooct-filter-stats.c',
     'aooct-filter-base.c'],
    # the CUDA backend (AooctCudaBuffer)
    ['aooct-cuda-buffer.c', 'aooct-cuda-element.c', 'aooct-cuda-upload.c',
     'aooct-cuda-video.c', 'aooct-output-ring.c'],
    # buffers (AooctInputDesc / AooctOutputDesc) and the CPU backend
    ['aooct-filter-buffers.c'],
    # the step cores
    ['aooct-step.c'],
]


def symbols(objdir):
    """{file: (defined, used)} from nm of OBJDIR/*.c.o"""
    table = {}
    for o in sorted(glob.glob(os.path.join(objdir, '*.c.o'))):
        name = os.path.basename(o)[:-2]
        out = subprocess.run(['nm', o], capture_output=True, text=True,
                             check=True).stdout
        defined, used = set(), set()
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in 'TDBRV':
                defined.add(f[2])
            elif len(f) == 2 and f[0] == 'U':
                used.add(f[1])
        table[name] = (defined, used)
    return table


def edges_of(table):
    owner = {s: n for n, (d, _) in table.items() for s in d}
    edges = collections.defaultdict(set)
    for n, (_, used) in table.items():
        edges[n]
        for s in used:
            if s in owner and owner[s] != n:
                edges[n].add(owner[s])
    return edges


def loops(edges):
    """strongly connected components of more than one node (Tarjan)"""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
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
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(out)


def check(found, known, present):
    """the messages for loops that are new or known loops that are gone
    (a known loop counts with the files of @present only: a build without
    CUDA has none of the CUDA files)"""
    msgs = []
    for comp in found:
        if not any(set(comp) <= set(k) for k in known):
            msgs.append('files of gst/ call each other in a loop: ' +
                        ' '.join(comp))
    for comp in known:
        comp = [f for f in comp if f in present]
        if len(comp) > 1 and comp not in found:
            msgs.append('the known loop ' + ' '.join(comp) + ' is gone (or '
                        'changed): update KNOWN in scripts/check-layers.py')
    return msgs


def upward(edges, layers):
    """the messages for calls from a file to one of a layer above it"""
    rank = {f: i for i, files in enumerate(layers) for f in files}
    msgs = []
    for a in sorted(edges):
        for b in sorted(edges[a]):
            if a in rank and b in rank and rank[b] < rank[a]:
                msgs.append('%s calls %s, a layer above it' % (a, b))
    return msgs


def self_test():
    e = collections.defaultdict(set)
    e['a.c'] = {'b.c'}
    e['b.c'] = {'c.c'}
    e['c.c'] = {'a.c'}
    e['d.c'] = {'a.c'}
    found = loops(e)
    assert found == [['a.c', 'b.c', 'c.c']], found
    assert check(found, [['a.c', 'b.c', 'c.c']], e) == []
    assert len(check(found, [], e)) == 1
    assert len(check([], [['a.c', 'b.c']], e)) == 1
    assert check([], [['a.c', 'x.c']], e) == []
    e['c.c'] = set()
    assert loops(e) == []
    assert upward(e, [['a.c'], ['b.c'], ['c.c']]) == []
    assert upward(e, [['b.c'], ['a.c']]) == ['a.c calls b.c, a layer above it']
    print('check-layers self-test: ok')
    return 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    graph = len(argv) == 3 and argv[1] == '--graph'
    if len(argv) != 2 and not graph:
        print(__doc__, file=sys.stderr)
        return 2
    objdir = argv[-1]
    table = symbols(objdir)
    if not table:
        print('no object files in ' + objdir, file=sys.stderr)
        return 2
    edges = edges_of(table)
    if graph:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(a + ' -> ' + b)
        return 0
    msgs = check(loops(edges), KNOWN, edges) + upward(edges, LAYERS)
    for m in msgs:
        print(m)
    if not msgs:
        print('%d files, %d calls between them, no new loop, none up the '
              'layers' %
              (len(edges), sum(len(v) for v in edges.values())))
    return 1 if msgs else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
