#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Lists every meson test (suite, name, program, arguments and the
environment that picks its tcase) and every gst-check test function of
tests/test-*.c (suite function / tcase: test), for a before/after list
when tests move (docs/tests.md).

    scripts/checks/list-test-names.py BUILD > names.txt   (a configured build)
"""
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, 'build')
meson = os.path.join(root, '.venv/bin/meson')
if not os.path.exists(meson):
    meson = 'meson'
tests = json.loads(subprocess.check_output([meson, 'introspect', '--tests', build]))
print('## meson tests (suite: name = program args [env])\n')
for t in tests:
    cmd = [os.path.basename(c) if c.startswith('/') else c for c in t['cmd']]
    env = {k: v for k, v in t['env'].items()
           if k in ('CK_RUN_CASE', 'GST_CHECKS', 'CUDA_VISIBLE_DEVICES',
                    'AOOCT_CUDA_GRAPHS', 'AOOCT_TEST_CUDA_GRAPHS')}
    print('%s: %s = %s%s' % (','.join(t['suite']).replace('aooct:', ''), t['name'], ' '.join(cmd),
                              (' ' + ' '.join('%s=%s' % kv for kv in sorted(env.items()))) if env else ''))
print('\n## test programs: suite function/tcase: test function\n')
tests_dir = os.path.join(root, 'tests')
for f in sorted(os.listdir(tests_dir)):
    if not (f.startswith('test-') and f.endswith('.c')):
        continue
    print(f + ':')
    fn, tcname = '?', {}
    for line in open(os.path.join(tests_dir, f)):
        m = re.match(r'^(\w+) \(', line)
        if m:
            fn = m.group(1)
        m = re.search(r'(\w+) = (?:aooct_test_backend_tcase \(\w+, |part_tcase \(\w+, |tcase_create \()"?([\w-]+)"?', line)
        if m:
            tcname[m.group(1)] = m.group(2)
        m = re.search(r'tcase_add_(?:loop_)?test\s*\(\s*(\w+)\s*,\s*(\w+)', line)
        if m:
            print('  %s/%s: %s' % (fn, tcname.get(m.group(1), m.group(1)), m.group(2)))
