#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# aooct-view's Flow view under Xvfb, driven by its --script hook (as
# tests/tools/test-viewer.sh): on the synthetic camera with two vessels, the
# Flow tab shows the Doppler and angiogram panes (each pane's pixels
# checked not blank by the screenshot step); the controls of aooctdoppler
# and aooctangio come from their properties (method's choices in the
# GEnumClass's order, the vessels' from aooctsrc's); a change while playing
# (the Doppler threshold) reaches the running element, one read at start
# (the angiogram's repeats) rebuilds the pipeline with it; the Doppler
# scale (velocity-max) is on the status line; switched off, the views go.
# Usage: test-viewer-flow.sh PATH/TO/aooct-view   (exit 77 without Xvfb,
# gtksink or the flow elements)
set -euo pipefail
view=$(realpath "$1")
command -v xvfb-run >/dev/null || { echo "xvfb-run missing (Debian: xvfb): skipped"; exit 77; }
command -v xauth >/dev/null || { echo "xauth missing: skipped"; exit 77; }
gst-inspect-1.0 gtksink >/dev/null 2>&1 || { echo "gtksink missing (Debian: gstreamer1.0-gtk3): skipped"; exit 77; }
for e in aooctdoppler aooctangio; do
  gst-inspect-1.0 $e >/dev/null 2>&1 || { echo "$e not installed: skipped"; exit 77; }
done
out=$(mktemp -d)
[ -n "${AOOCT_TEST_KEEP:-}" ] || trap 'rm -rf "$out"' EXIT
cd "$out"

# CPU everywhere (the machine may have no GPU); the camera with vessels,
# each position scanned 4 times, the flow elements set to match
{
  printf '[source]\nkind=synthetic\n'
  printf '[aooctsrc]\nis-live=true\nseed=31\nvessel-count=2\nspeckle-width=3\nrepeats=4\n'
  printf '[aooctkmap]\nwavelength-coeffs=785,0.125,1e-05,-2e-09\n'
  printf '[aooctdisp]\na2=8\na3=-2\n'
  for e in aooctdcsub aooctpad aooctfft aooctnorm; do printf '[%s]\nbackend=cpu\n' $e; done
  # no mask: the screenshot step wants more than a few grey levels in each
  # pane, and a masked Doppler or angiogram image is black but for the
  # vessels
  printf '[aooctdoppler]\ncrop-start=100\ncrop-end=560\nline-rate=24000\ncenter-wavelength=840\nthreshold=0\n'
  printf '[aooctangio]\nrepeats=4\ncrop-start=100\ncrop-end=560\nthreshold=0\n'
} > flow.ini

nicks() {
  gst-inspect-1.0 "$1" | sed -n "/^  $2 /,/^  [a-z]/p" \
    | sed -n 's/^ *([0-9]*): \([a-z0-9-]*\) .*/\1/p' | paste -sd, -
}
cat > script.txt <<END_OF_SCRIPT
expect-view doppler yes
expect-view angio yes
expect-control aooctdoppler lag yes
expect-control aooctdoppler threshold yes
expect-control aooctangio repeats yes
expect-control aooctsrc vessel-velocity yes
expect-choices aooctangio method $(nicks aooctangio method)
expect-running
expect-status full red / blue = 3.652 mm/s
show flow
wait-frames 12
wait-ms 800
screenshot flow.png
set aooctdoppler threshold 70
expect-property aooctdoppler threshold 70
set aooctangio repeats 2
expect-running
expect-property aooctangio repeats 2
wait-frames 8
wait-ms 800
screenshot flow2.png
set views enabled false
expect-view doppler no
expect-view angio no
expect-running
quit
END_OF_SCRIPT
grep -q 'method decorrelation,speckle-variance' script.txt ||
  { echo "FAIL: gst-inspect-1.0 parsing"; cat script.txt; exit 1; }

rc=0
timeout 150 xvfb-run -a -s "-screen 0 1280x800x24" "$view" --sink gtksink \
  --settings flow.ini --script script.txt > flow.log 2>&1 || rc=$?
cat flow.log
[ $rc -eq 0 ] || { echo "FAIL: aooct-view --script exited $rc"; exit 1; }
[ -s flow.png ] && [ -s flow2.png ] || { echo "FAIL: no screenshot"; exit 1; }
echo "viewer flow: the Flow tab's Doppler and angiogram panes shown, controls from the properties"
