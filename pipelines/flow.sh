#!/usr/bin/env bash
# Flow (spec section 12; docs/flow.md): the synthetic camera with two
# vessels in the inner retina, their blood moving away from and towards
# the probe, each position scanned several times in a row, shown as four
# panes put together by compositor: the structure (aooctnorm, averaged over
# the repeats), the Doppler phase (aooctdoppler, blue away from the probe,
# red towards it with this camera: docs/flow.md, "Which sign is which"), the angiogram (aooctangio, SSADA
# decorrelation) and the en-face angiogram of each volume (aooctangio !
# aooctflowenface: the angiograms' inner-retina slab, one row per position).
# In a window, or into OUTDIR as an H.264 MP4 and PNGs.
#
#   pipelines/flow.sh            a window
#   pipelines/flow.sh OUTDIR     OUTDIR/flow.mp4 (the four panes),
#                                OUTDIR/flow-panes.png (its last frame) and
#                                OUTDIR/enface-angio-NN.png (each volume's
#                                en-face angiogram, full size)
#   AOOCT_VELOCITY=MM_S       axial blood velocity, mm/s (default 2; the
#                             scale ends at 3.65 mm/s: 24000 A-lines/s)
#   AOOCT_REPEATS=N           B-scans per position (default 4)
#   AOOCT_POSITIONS=V         positions per volume (default 40): a volume
#                             is V x N B-scans
#   AOOCT_BSCANS=B            stop after B B-scans (default: until closed,
#                             or 2 volumes into OUTDIR)
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
velocity=${AOOCT_VELOCITY:-2}
n=${AOOCT_REPEATS:-4}
v=${AOOCT_POSITIONS:-40}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cal="$tmp/calibration.txt"
bg="$tmp/background.txt"
background=$(command -v aooct-background ||
  echo "${AOOCT_BUILD:-$root/build}/tools/aooct-background")

# The camera: 240 A-lines at 100 B-scans/s (24000 A-lines/s), speckle
# correlated over neighbouring A-lines (the beam wider than their spacing:
# Doppler between neighbours needs it), two vessels of 40 um at 220 um of
# path (vessel-position 0.25 and 0.75), blood decorrelating fully from one
# B-scan to the next (docs/flow.md has what each setting gives).
camera=(seed=31 speckle-width=3 vessel-count=2 vessel-velocity="$velocity"
  repeats="$n" bscans-per-volume="$v" calibration-file="$cal")

# Doppler is best after background subtraction (spec section 12): the
# camera's spectrum without a sample, averaged by tools/aooct-background.
"$background" --frames=8 --output="$bg" \
  aooctsrc num-buffers=8 reflectivity=0 "${camera[@]}" >/dev/null

# The retina: depth bins 100 .. 560 of aooctpad's 2048 (130 .. 730 um);
# the en-face slab: rows 40 .. 140 of those images (182 .. 312 um: the
# inner layers, where the vessels run at every position of the volume).
crop="crop-start=100 crop-end=560"
slab="crop-start=40 crop-end=140"
# each pane 320 x 320 (the images stretched to it)
pane="videoconvert ! videoscale add-borders=false ! video/x-raw,width=320,height=320,pixel-aspect-ratio=1/1"
# B-scan-rate images wait here for the first angiogram and en-face image
# (compositor takes a frame from every pad when the source is not live)
bqueue="queue max-size-buffers=$((2 * v * n + 8)) max-size-bytes=0 max-size-time=0"
# depth-domain buffers before the group elements: a group's worth
gqueue="queue max-size-buffers=$((2 * n + 2)) max-size-bytes=0 max-size-time=0"

if [ -n "$out" ]; then
  mkdir -p "$out"
  rm -f "$out"/enface-angio-*.png "$out"/flow-panes*.png
  live=false
  bscans=${AOOCT_BSCANS:-$((2 * v * n))}
  # OUTDIR's path: one argument each (a space stays in it), and '%' written
  # '%%' in multifilesink's printf format (a folder "flow%d" is that
  # folder, not a number)
  fmt=${out//%/%%}
  # shellcheck disable=SC2054  # caps, not an array's commas
  sink=(tee name=o
    o. ! queue ! videoconvert ! video/x-raw,format=I420
       ! x264enc speed-preset=ultrafast tune=zerolatency ! mp4mux
       ! filesink location="$out/flow.mp4"
    o. ! queue ! videoconvert ! pngenc
       ! multifilesink max-files=1 location="$fmt/flow-panes-%05d.png")
  # shellcheck disable=SC2206  # $slab: fixed properties
  enface_file=(a. ! queue ! aooctflowenface bscans-per-volume="$v" $slab
    ! pngenc ! multifilesink location="$fmt/enface-angio-%02d.png")
else
  live=true
  bscans=${AOOCT_BSCANS:--1}
  # shellcheck disable=SC2206  # AOOCT_VIDEOSINK: a pipeline fragment
  sink=(videoconvert ! ${AOOCT_VIDEOSINK:-autovideosink})
  enface_file=()
fi

# shellcheck disable=SC2086
gst-launch-1.0 -e \
  aooctsrc is-live=$live num-buffers="$bscans" "${camera[@]}" \
  ! aooctdcsub mode=background background-file="$bg" ! aooctpad \
  ! aooctkmap wavelength-file="$cal" ! aooctdisp a2=8 a3=-2 ! aooctfft \
  ! tee name=t \
  compositor name=mix background=black \
    sink_0::xpos=0 sink_0::ypos=0 sink_1::xpos=320 sink_1::ypos=0 \
    sink_2::xpos=0 sink_2::ypos=320 sink_3::xpos=320 sink_3::ypos=320 \
  ! video/x-raw,width=640,height=640,framerate=25/1 ! "${sink[@]}" \
  t. ! aooctnorm average-bscans="$n" $crop dynamic-range=45 \
     ! $bqueue ! $pane ! mix.sink_0 \
  t. ! $gqueue ! aooctdoppler $crop line-rate=24000 center-wavelength=840 \
     ! video/x-raw,format=RGBA ! $bqueue ! $pane ! mix.sink_1 \
  t. ! $gqueue ! aooctangio repeats="$n" $crop ! tee name=a \
  a. ! $bqueue ! $pane ! mix.sink_2 \
  a. ! queue ! aooctflowenface bscans-per-volume="$v" $slab ! $pane ! mix.sink_3 \
  "${enface_file[@]}"
if [ -n "$out" ]; then
  last=$(find "$out" -name 'flow-panes-*.png' | sort | tail -1)
  [ -n "$last" ] && mv "$last" "$out/flow-panes.png"
  echo "aooct: $bscans B-scans: $out/flow.mp4, $out/flow-panes.png," \
    "$out/enface-angio-*.png"
fi
