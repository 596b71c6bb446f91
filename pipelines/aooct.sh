#!/usr/bin/env bash
# AO-OCT live (spec section 13; docs/aooct.md): two synthetic cameras,
# shown as four panes put together by compositor.
#  - The retina moving with the eye (aooctsrc motion-axial/-lateral: a
#    drift and a tremor of known size, the same tissue and speckle at the
#    new place), one B-scan position repeated: the B-scans averaged over
#    AOOCT_AVERAGE as they come (aooctnorm average-bscans, blurred by the
#    motion) beside the same average after aooctregister (sharp).
#  - The photoreceptors (aooctsrc phantom=photoreceptors: IS/OS, COST and
#    RPE as cones, curved, moving axially) with a flash at B-scan
#    AOOCT_STIMULUS: aooctorg's kymograph (the outer segments' OPL change
#    per A-line, 128 = no change, brighter = longer) and the layer en-face
#    of each AOOCT_VOLUME B-scans (aooctenface layer=brightest: a slab that
#    follows IS/OS).
# In a window, with the trace (mean OPL change per B-scan, nm) printed in
# the terminal, or into OUTDIR as an H.264 MP4, PNGs and the text files.
#
#   pipelines/aooct.sh            a window; the trace in the terminal
#   pipelines/aooct.sh OUTDIR     OUTDIR/aooct.mp4 (the four panes),
#                                 OUTDIR/aooct-panes.png (its last frame),
#                                 OUTDIR/enface-layer-NN.png (each volume),
#                                 OUTDIR/org-trace.txt ('bscan seconds mean
#                                 std valid', nm) and OUTDIR/shifts.txt
#                                 ('bscan dz dx correlation rejected')
#   AOOCT_BSCANS=B            B-scans of each camera (default: until closed,
#                             or 160 into OUTDIR)
#   AOOCT_MOTION=UM,ALINES    the eye motion's peak axial (um) and lateral
#                             (A-lines) shift (default 10,3)
#   AOOCT_AVERAGE=K           B-scans averaged (default 8)
#   AOOCT_STIMULUS=S          the flash's B-scan (default 30); the ORG's
#                             baseline is the S B-scans before it
#   AOOCT_VOLUME=V            B-scans per layer en-face image (default 32)
#   AOOCT_VIDEOSINK=ELEMENT   where to show it (default autovideosink)
#   AOOCT_SKIP_BOOTSTRAP=1    use the aooct already on GST_PLUGIN_PATH
#                             (else: installs missing runtime packages only;
#                             build aooct first with scripts/bootstrap.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# what running needs, no build tools (scripts/setup/runtime-deps.sh): x264enc
# for the MP4
aooct_extra_packages=(gstreamer1.0-plugins-ugly)
# shellcheck source=../scripts/setup/runtime-deps.sh
source "$root/scripts/setup/runtime-deps.sh"

out=${1:-}
motion=${AOOCT_MOTION:-10,3}
k=${AOOCT_AVERAGE:-8}
s=${AOOCT_STIMULUS:-30}
v=${AOOCT_VOLUME:-32}
case "$motion" in
  *,*) ;;
  *) echo "aooct.sh: AOOCT_MOTION=$motion: give UM,ALINES (e.g. 10,3)" >&2; exit 2 ;;
esac
for n in "$k" "$s" "$v"; do
  case "$n" in
    '' | *[!0-9]*) echo "aooct.sh: AOOCT_AVERAGE, AOOCT_STIMULUS, AOOCT_VOLUME take whole numbers (got '$n')" >&2; exit 2 ;;
  esac
done
[ "$s" -ge 1 ] || { echo "aooct.sh: AOOCT_STIMULUS=$s: the baseline before the flash needs at least 1 B-scan" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bg_retina="$tmp/background-retina.txt"
bg_cones="$tmp/background-cones.txt"
background=$(command -v aooct-background ||
  echo "${AOOCT_BUILD:-$root/build}/tools/aooct-background")

# The moving retina: 240 A-lines, speckle correlated over neighbouring
# A-lines (the beam wider than their spacing: a lateral shift then moves
# the same speckle), one position (bscans-per-volume=1: every B-scan the
# same tissue, at the place the motion puts it; docs/aooct.md).
retina=(seed=5 speckle-width=3 bscans-per-volume=1
  motion-axial="${motion%,*}" motion-lateral="${motion#*,}")
# The photoreceptors: 96 A-lines, layers curved by 4 um, bulk axial
# motion of +-3 um; the flash at B-scan s.
cones=(seed=11 alines=96 phantom=photoreceptors org-curvature=4
  org-bulk-amplitude=3 org-bulk-period=37 org-stimulus="$s")
# Both cameras' spectrum without a sample (aooct-background): the ORG and
# the registration work best after background subtraction.
"$background" --frames=4 --output="$bg_retina" \
  aooctsrc num-buffers=4 reflectivity=0 "${retina[@]}" >/dev/null
"$background" --frames=4 --output="$bg_cones" \
  aooctsrc num-buffers=4 reflectivity=0 "${cones[@]}" >/dev/null

# The layer windows, in bins of aooctpad size=2048 (0.769 bins per um for
# this camera: aooct_synth_depth_bin(), docs/aooct.md "Placing the
# windows"): IS/OS at 250 um of path (bin 192) +- its motion and
# curvature; COST 30 um (23 bins) deeper, searched 16 .. 28 bins below.
layer="layer-search-start=182 layer-search-end=203"
org="$layer second-layer-min=16 second-layer-max=28 baseline=$s
  center-wavelength=840 threshold=20 history=128"
enface="bscans-per-volume=$v layer=brightest $layer slab-start=-1 slab-end=2"
# the retina's depth bins for the images and the registration's estimate
crop="crop-start=100 crop-end=560"
chain="aooctpad size=2048 ! aooctkmap wavelength-coeffs=785,0.125,1e-05,-2e-09
  ! aooctdisp a2=8 a3=-2 ! aooctfft"
# each pane 320 x 320 (the images stretched to it)
pane="videoconvert ! videoscale add-borders=false ! video/x-raw,width=320,height=320,pixel-aspect-ratio=1/1"
# per-B-scan images wait here for the first en-face image (compositor
# takes a frame from every pad when the sources are not live)
bqueue="queue max-size-buffers=$((2 * v + 8)) max-size-bytes=0 max-size-time=0"

if [ -n "$out" ]; then
  mkdir -p "$out"
  live=false
  bscans=${AOOCT_BSCANS:-160}
  # OUTDIR's path: one argument each (a space stays in it), and '%' written
  # '%%' in multifilesink's printf format
  fmt=${out//%/%%}
  trace="$out/org-trace.txt"
  shifts=(shifts-file="$out/shifts.txt")
  sink=(tee name=o
    o. ! queue ! videoconvert ! video/x-raw,format=I420
       ! x264enc speed-preset=ultrafast tune=zerolatency ! mp4mux
       ! filesink location="$out/aooct.mp4"
    o. ! queue ! videoconvert ! pngenc
       ! multifilesink max-files=1 location="$fmt/aooct-panes-%05d.png")
  enface_file=(e. ! queue ! pngenc
    ! multifilesink location="$fmt/enface-layer-%02d.png")
else
  live=true
  bscans=${AOOCT_BSCANS:--1}
  trace="$tmp/org-trace.txt"
  shifts=()
  # shellcheck disable=SC2206  # AOOCT_VIDEOSINK: a pipeline fragment
  sink=(videoconvert ! ${AOOCT_VIDEOSINK:-autovideosink})
  enface_file=()
fi

# shellcheck disable=SC2086  # $chain, $crop, ...: fixed properties
run() {
  gst-launch-1.0 -e "$@" \
    compositor name=mix background=black \
      sink_0::xpos=0 sink_0::ypos=0 sink_1::xpos=320 sink_1::ypos=0 \
      sink_2::xpos=0 sink_2::ypos=320 sink_3::xpos=320 sink_3::ypos=320 \
    ! video/x-raw,width=640,height=640,framerate=25/1 ! "${sink[@]}" \
    aooctsrc is-live=$live num-buffers="$bscans" "${retina[@]}" \
    ! aooctdcsub mode=background background-file="$bg_retina" ! $chain \
    ! tee name=r \
    r. ! queue ! aooctnorm average-bscans="$k" $crop dynamic-range=45 \
       ! $bqueue ! $pane ! mix.sink_0 \
    r. ! queue ! aooctregister $crop "${shifts[@]}" \
       ! aooctnorm average-bscans="$k" $crop dynamic-range=45 \
       ! $bqueue ! $pane ! mix.sink_1 \
    aooctsrc is-live=$live num-buffers="$bscans" "${cones[@]}" \
    ! aooctdcsub mode=background background-file="$bg_cones" ! $chain \
    ! tee name=c \
    c. ! queue ! aooctorg $org trace-file="$trace" ! $bqueue ! $pane \
       ! mix.sink_2 \
    c. ! queue ! aooctenface $enface ! tee name=e \
    e. ! queue ! $pane ! mix.sink_3 \
    "${enface_file[@]}"
}

if [ -n "$out" ]; then
  rm -f "$out"/enface-layer-*.png "$out"/aooct-panes*.png
  run
  last=$(find "$out" -name 'aooct-panes-*.png' | sort | tail -1)
  [ -n "$last" ] && mv "$last" "$out/aooct-panes.png"
  echo "aooct: $bscans B-scans of each camera: $out/aooct.mp4," \
    "$out/aooct-panes.png, $out/enface-layer-*.png, $out/org-trace.txt," \
    "$out/shifts.txt"
else
  echo "aooct: the ORG trace (B-scan, mean OPL change in nm, valid A-lines);" \
    "the flash at B-scan $s; aooct-view's ORG tab plots it"
  # the trace as aooctorg writes it, while the window runs
  : > "$trace"
  # (a shell loop: awk may read its input in blocks)
  tail -s 0.2 -n +1 -F "$trace" 2>/dev/null | while read -r b _ mean _ valid; do
    printf 'B-scan %5d  %8.2f nm  (%d A-lines)\n' "$b" "$mean" "$valid"
  done &
  tailer=$!
  run || rc=$?
  sleep 0.5                     # tail's last lines
  kill "$tailer" 2>/dev/null || true
  pkill -P $$ tail 2>/dev/null || true
  exit "${rc:-0}"
fi
