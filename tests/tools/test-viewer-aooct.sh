#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# aooct-view's AO-OCT tabs under Xvfb, driven by its --script hook (as
# tests/test-viewer-flow.sh): with registration switched on, aooctregister
# runs after aooctfft (the printed gst-launch line has it) and the
# Registration tab plots one point per B-scan from its aooct-registration
# messages; the ORG tab shows aooctorg's kymograph (the screenshot step
# fails on a blank video) and plots its trace from aooct-org; the controls
# come from the elements' properties (reference's choices in the
# GEnumClass's order); a live change (min-correlation) reaches the running
# element; switched off, aooctregister leaves the chain.
# Usage: test-viewer-aooct.sh PATH/TO/aooct-view   (exit 77 without Xvfb,
# gtksink or the AO-OCT elements)
set -euo pipefail
view=$(realpath "$1")
command -v xvfb-run >/dev/null || { echo "xvfb-run missing (Debian: xvfb): skipped"; exit 77; }
command -v xauth >/dev/null || { echo "xauth missing: skipped"; exit 77; }
gst-inspect-1.0 gtksink >/dev/null 2>&1 || { echo "gtksink missing (Debian: gstreamer1.0-gtk3): skipped"; exit 77; }
for e in aooctregister aooctorg; do
  gst-inspect-1.0 $e >/dev/null 2>&1 || { echo "$e not installed: skipped"; exit 77; }
done
out=$(mktemp -d)
[ -n "${AOOCT_TEST_KEEP:-}" ] || trap 'rm -rf "$out"' EXIT
cd "$out"

# CPU everywhere (the machine may have no GPU); the synthetic camera, the
# ORG's layer windows on its retina (docs/aooct.md), no mask so that the
# kymograph has more than a few grey levels
{
  printf '[source]\nkind=synthetic\n'
  printf '[aooctsrc]\nis-live=true\nseed=7\n'
  printf '[aooctkmap]\nwavelength-coeffs=785,0.125,1e-05,-2e-09\n'
  printf '[aooctdisp]\na2=8\na3=-2\n'
  for e in aooctdcsub aooctpad aooctfft aooctnorm aooctregister aooctorg; do
    printf '[%s]\nbackend=cpu\n' $e
  done
  printf '[registration]\nenabled=true\n'
  printf "[aooctorg]\nthreshold=0\nbaseline=3\ncenter-wavelength=840\nhistory=16\n"
} > aooct.ini

nicks() {
  gst-inspect-1.0 "$1" | sed -n "/^  $2 /,/^  [a-z]/p" \
    | sed -n 's/^ *([0-9]*): \([a-z0-9-]*\) .*/\1/p' | paste -sd, -
}
cat > script.txt <<END_OF_SCRIPT
expect-control registration enabled yes
expect-control aooctregister upsample yes
expect-control aooctregister min-correlation yes
expect-control aooctorg baseline yes
expect-choices aooctregister reference $(nicks aooctregister reference)
expect-view org yes
expect-running
show registration
expect-plot registration 8
screenshot registration.png
set aooctregister min-correlation 0.5
expect-property aooctregister min-correlation 0.5
show org
expect-plot org 24
wait-ms 500
screenshot org.png
save saved.ini
set registration enabled false
expect-running
save saved-off.ini
quit
END_OF_SCRIPT
grep -q 'reference first,previous' script.txt ||
  { echo "FAIL: gst-inspect-1.0 parsing"; cat script.txt; exit 1; }

rc=0
timeout 150 xvfb-run -a -s "-screen 0 1280x800x24" "$view" --sink gtksink \
  --settings aooct.ini --script script.txt > aooct.log 2>&1 || rc=$?
cat aooct.log
[ $rc -eq 0 ] || { echo "FAIL: aooct-view --script exited $rc"; exit 1; }
[ -s registration.png ] && [ -s org.png ] || { echo "FAIL: no screenshot"; exit 1; }
# the launch line in the saved settings' comment: aooctregister in the
# chain when on, not when off
grep -q '! aooctfft[^!]*! aooctregister' saved.ini ||
  { echo "FAIL: aooctregister not after aooctfft in the saved launch line"; head -3 saved.ini; exit 1; }
if grep -q 'aooctregister' <(head -3 saved-off.ini); then
  echo "FAIL: aooctregister still in the launch line when switched off"; exit 1
fi
echo "viewer aooct: the Registration and ORG tabs plot their elements' messages, the kymograph is shown, registration switches in and out"
