#!/usr/bin/env bash
# Live view and recording at once: the chain's output goes through tee to
# a window and to a lossless FFV1 Matroska file (16-bit grey, decodes back
# to exactly aooctnorm's pixels).  Each branch has its own queue, so a slow
# display never holds up the recording.
#
#   pipelines/record-and-view.sh [FILE]    (default: out/live.mkv)
#   AOOCT_BSCANS=N            stop after N B-scans (default: until closed;
#                             Ctrl-C finishes the file properly, -e)
#   AOOCT_VIDEOSINK=ELEMENT   where to show it (default autovideosink)
#   AOOCT_SKIP_BOOTSTRAP=1    use the aooct already on GST_PLUGIN_PATH
#                             (else: installs missing runtime packages only;
#                             build aooct first with scripts/bootstrap.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# what running needs, no build tools (scripts/setup/runtime-deps.sh)
aooct_extra_packages=(gstreamer1.0-libav)
# shellcheck source=../scripts/setup/runtime-deps.sh
source "$root/scripts/setup/runtime-deps.sh"
file=${1:-$root/out/live.mkv}
mkdir -p "$(dirname "$file")"
cal=$(mktemp --suffix=.txt); trap 'rm -f "$cal"' EXIT

# shellcheck disable=SC2086
gst-launch-1.0 -e \
  aooctsrc is-live=true num-buffers="${AOOCT_BSCANS:--1}" calibration-file="$cal" \
  ! aooctdcsub ! aooctpad ! aooctkmap wavelength-file="$cal" \
  ! aooctdisp a2=8 a3=-2 ! aooctfft ! aooctnorm dynamic-range=50 \
  ! video/x-raw,format=GRAY16_LE ! tee name=t \
  t. ! queue ! videoconvert ! ${AOOCT_VIDEOSINK:-autovideosink} \
  t. ! queue ! avenc_ffv1 gop-size=1 ! matroskamux ! filesink location="$file"
echo "aooct: recorded to $file"
