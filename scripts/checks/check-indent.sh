#!/usr/bin/env bash
# Fails when a tracked C file is not formatted as gst-indent-1.0 (GStreamer's
# GNU indent settings, from PyPI: gst-indent) would format it.  Exit 77
# (skipped) when gst-indent-1.0 is not installed.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
indent=$(command -v gst-indent-1.0 || echo "$root/.venv/bin/gst-indent-1.0")
[ -x "$indent" ] || { echo "gst-indent-1.0 not installed: skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bad=0
cd "$root"
for f in $(git ls-files '*.c' 2>/dev/null || find . -name '*.c'); do
  cp "$f" "$tmp/x.c"
  "$indent" "$tmp/x.c" >/dev/null 2>&1
  if ! cmp -s "$f" "$tmp/x.c"; then
    echo "not gst-indent formatted: $f"; diff -u "$f" "$tmp/x.c" | head -20
    bad=1
  fi
done
[ $bad -eq 0 ] && echo "all C files are gst-indent formatted"
exit $bad
