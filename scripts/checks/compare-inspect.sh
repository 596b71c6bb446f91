#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two builds describe the same elements (a restructuring with no behaviour
# change): gst-inspect-1.0 of the plugin and of each of its elements with
# each build's plugin (properties in order, blurbs, ranges, defaults,
# flags, pads, signals), compared line by line.  The plugin's file name
# and path lines differ between builds and are left out.
#
#   scripts/checks/compare-inspect.sh OLD_BUILD NEW_BUILD OUTDIR
#
# OUTDIR gets old.txt, new.txt and diff.txt; the exit status is 0 only
# when both builds list the same elements and describe them identically.
old=${1:?usage: compare-inspect.sh OLD_BUILD NEW_BUILD OUTDIR}
new=${2:?new build}; out=${3:?outdir}
old=$(cd "$old" && pwd) && new=$(cd "$new" && pwd) || exit 2
mkdir -p "$out"
for t in old new; do
  dir=$old; [ $t = new ] && dir=$new
  # each build's own registry, so that neither loads the other's plugin
  export GST_REGISTRY_1_0="$out/registry-$t.bin" GST_PLUGIN_PATH_1_0="$dir/gst"
  elements=$(cd /tmp && gst-inspect-1.0 aooct 2>/dev/null |
    sed -n 's/^  \(aooct[a-z0-9]*\): .*/\1/p' | LC_ALL=C sort)
  [ -n "$elements" ] || { echo "$t: no aooct elements in $dir/gst"; exit 1; }
  {
    (cd /tmp && gst-inspect-1.0 aooct) 2>&1 | grep -v '^  Filename\|^Plugin Details'
    for e in $elements; do
      echo "=== $e"
      (cd /tmp && gst-inspect-1.0 "$e") 2>&1 | grep -v '^  Filename'
    done
  } > "$out/$t.txt"
done
if diff -u "$out/old.txt" "$out/new.txt" > "$out/diff.txt"; then
  echo "gst-inspect identical: $(grep -c '^=== ' "$out/new.txt") elements," \
    "$(wc -l < "$out/new.txt") lines"
else
  echo "gst-inspect differs ($out/diff.txt):"; head -40 "$out/diff.txt"; exit 1
fi
