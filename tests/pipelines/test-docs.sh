#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The documentation keeps up with the code:
#  - docs/elements.md is what scripts/gen/gen-elements-doc.py makes from
#    gst-inspect-1.0 now, and has a section for every element of the plugin
#    and a row for every property (so an element or property added without
#    regenerating it fails here, by name);
#  - every pipelines/*.sh says what it does in a comment, is described in
#    docs/howto.md and is run by a test (tests/test-*.sh);
#  - the pictures docs/howto.md shows exist.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "$*"; bad=1; }

python3 "$root/scripts/gen/gen-elements-doc.py" >"$tmp/elements.md"
doc=$root/docs/elements.md
for e in $(gst-inspect-1.0 aooct | sed -n 's/^  \(aooct[a-z0-9]*\): .*/\1/p'); do
  # the element's section of the committed file
  awk -v h="## $e" '$0 == h {on = 1; next} /^## / {on = 0} on' "$doc" >"$tmp/section"
  [ -s "$tmp/section" ] || { fail "element $e is not documented in docs/elements.md"; continue; }
  for p in $(gst-inspect-1.0 "$e" | sed -n '/^Element Properties:/,/^[A-Z]/s/^  \([a-z][a-z0-9-]*\) *: .*/\1/p'); do
    # as scripts/gen/gen-elements-doc.py: GstObject's, and GstBaseSrc's
    # automatic-eos, a property only from GStreamer 1.24 on
    case $p in name|parent|automatic-eos) continue ;; esac
    grep -q "^| \`$p\` |" "$tmp/section" || fail "property $e:$p is not documented in docs/elements.md"
  done
done
if ! diff -u "$doc" "$tmp/elements.md" >"$tmp/diff"; then
  head -40 "$tmp/diff"
  fail "docs/elements.md is out of date: run GST_PLUGIN_PATH_1_0=BUILD/gst scripts/gen/gen-elements-doc.py > docs/elements.md"
fi

for s in "$root"/pipelines/*.sh; do
  b=$(basename "$s")
  sed -n 2p "$s" | grep -q '^# [A-Z]' || fail "pipelines/$b: no comment saying what it does (line 2)"
  grep -q "pipelines/$b" "$root/docs/howto.md" || fail "pipelines/$b is not described in docs/howto.md"
  grep -lq "pipelines/$b" "$root"/tests/*/test-*.sh || fail "pipelines/$b is not run by any test"
done
for img in $(grep -o 'img/[a-z0-9-]*\.png' "$root/docs/howto.md" | sort -u); do
  [ -f "$root/docs/$img" ] || fail "docs/howto.md shows docs/$img, which does not exist"
done
# the hand-build command in examples/aooct-embed.c's header builds it
# (issue 19, item 16: it lacked gstreamer-video-1.0)
cmd=$(sed -n '/Build: .*by hand:/,/^ \* Run/p' "$root/examples/aooct-embed.c" |
  sed -e '1d' -e '$d' -e 's/^ \* *//' | tr -d '\\\n')
case $cmd in
  "cc aooct-embed.c "*)
    if command -v cc >/dev/null; then
      (cd "$tmp" && cp "$root/examples/aooct-embed.c" . &&
        eval "$cmd -o aooct-embed" >"$tmp/cc.log" 2>&1) ||
        { cat "$tmp/cc.log"; fail "examples/aooct-embed.c: its hand-build command fails: $cmd"; }
    fi ;;
  *) fail "examples/aooct-embed.c: no hand-build command found (got '$cmd')" ;;
esac
# Issue 33, item 20: Debian's python3-gi is in /usr/bin/python3 only, and
# a pyenv or venv python3 first on PATH has no gi.  For every program of
# ours that imports gi: no command in the docs (or its own header) runs it
# with a bare `python3`, and run by a Python without gi it says which
# Python has gi and how to get it, instead of a bare ImportError.
py=/usr/bin/python3; [ -x $py ] || py=python3
# the tree's files, in a checkout or not (scripts/checks/tree-files.sh)
tree_files() { "$root/scripts/checks/tree-files.sh" "$@"; }
gi_programs=$(cd "$root" && tree_files | while read -r f; do
  case $f in *.py) ;; *) head -n1 "$f" 2>/dev/null | grep -q '^#!.*python' || continue ;; esac
  grep -Eq '^ *(import gi|from gi )' "$f" && echo "$f"
done)
[ -n "$gi_programs" ] || fail "found no Python program that imports gi (test broken?)"
for f in $gi_programs; do
  if grep -nE "(^|[^/[:alnum:]])python3 +(\./)?$f" "$root"/README.md "$root"/docs/*.md "$root/$f"; then
    fail "$f: run with a bare python3 above (pyenv/venv: no gi): say /usr/bin/python3"
  fi
  # -S: no site packages, so no gi
  # (AOOCT_BATCH_REEXEC: tools/aooct-batch would find .venv by itself)
  rc=0; AOOCT_BATCH_REEXEC=1 $py -S "$root/$f" --help >"$tmp/nogi" 2>&1 || rc=$?
  [ $rc != 0 ] && grep -q '/usr/bin/python3' "$tmp/nogi" && grep -q 'PyGObject' "$tmp/nogi" ||
    { cat "$tmp/nogi"; fail "$f: without gi (rc $rc) it does not say to use /usr/bin/python3 or PyGObject"; }
done
# Every tool's usage line names its arguments once (issue 41: "RAWFILE
# RAWFILE", GLib printing both the context's parameter string and the
# remaining arguments' description)
for t in "${AOOCT_BUILD:-$root/build}"/tools/aooct-*; do
  [ -x "$t" ] && [ -f "$t" ] || continue
  usage=$("$t" --help 2>&1 | sed -n '/^Usage:/{n;p;q}')
  [ -n "$usage" ] || { fail "$(basename "$t") --help: no usage line"; continue; }
  dup=$(tr -s ' ' '\n' <<<"$usage" | grep -v '^-$' | sort | uniq -d)
  [ -z "$dup" ] || fail "$(basename "$t") --help: '$dup' twice in its usage line: $usage"
done
# ... and the list is the same outside a checkout (issue 41: this test and
# runtime-deps found nothing in an unpacked archive): the tracked files
# copied without .git, listed again
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mkdir "$tmp/tree"
  (cd "$root" && git ls-files -z | xargs -0 cp -P --parents -t "$tmp/tree")
  AOOCT_TREE="$tmp/tree" "$root/scripts/checks/tree-files.sh" >"$tmp/plain"
  tree_files >"$tmp/git"
  diff "$tmp/git" "$tmp/plain" >"$tmp/tree.diff" ||
    { head "$tmp/tree.diff"; fail "scripts/checks/tree-files.sh lists other files outside a git checkout"; }
  [ "$(AOOCT_TREE="$tmp/tree" "$root/scripts/checks/tree-files.sh" pipelines scripts | wc -l)" = \
    "$(tree_files pipelines scripts | wc -l)" ] || fail "scripts/checks/tree-files.sh FOLDER... differs outside a checkout"
fi
[ $bad -eq 0 ] && echo "docs: every element and property documented, elements.md current, every pipeline described and tested"
exit $bad
