#!/usr/bin/env bash
# The synthetic retina as three live views side by side in one window: the
# B-scan of every B-scan (aooctnorm), the en-face image of every volume
# (aooctenface) and the volume rendered by ray casting (aooctrender), put
# together by compositor; or, given a FILE, the same picture to an H.264
# MP4.  The views' images come once per volume, each with its volume's
# first B-scan's timestamp, and compositor shows each over its volume, in
# step with the B-scans it was made of (spec section 11; docs/howto.md,
# "Volumes and views").
#
#   pipelines/views.sh            a window
#   pipelines/views.sh FILE.mp4   an MP4 file instead
#   AOOCT_BSCANS=N            stop after N B-scans (default: until closed,
#                             or 400 B-scans = 4 volumes for a file)
#   AOOCT_VOLUME=V            B-scans per volume (default 100, as aooctsrc)
#   AOOCT_RENDER="..."        aooctrender settings (default
#                             "mode=mip azimuth=35 elevation=25 zoom=0.8")
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
file=${1:-}
volume=${AOOCT_VOLUME:-100}
render=${AOOCT_RENDER:-mode=mip azimuth=35 elevation=25 zoom=0.8}
cal=$(mktemp --suffix=.txt); trap 'rm -f "$cal"' EXIT
# the retina's layers: depth bins 100 .. 700 of the 1024 (the rest is
# empty vitreous and choroid noise)
crop="crop-start=100 crop-end=700"
# A view's image is made when its volume's last B-scan has come and is
# shown from the volume's first, so the B-scan pane waits a volume for it:
# from a file in this queue (without it compositor and the tee would wait
# on each other), live in compositor's latency (a volume at aooctsrc's 100
# B-scans/s).  docs/howto.md, "Volumes and views".
bqueue="queue max-size-buffers=$((2 * volume)) max-size-bytes=0 max-size-time=0"
# each pane 400 x 400, the image fitted inside with black borders
pane="videoscale add-borders=true ! video/x-raw,width=400,height=400,pixel-aspect-ratio=1/1"

if [ -n "$file" ]; then
  mkdir -p "$(dirname "$file")"
  live=false
  latency=0
  bscans=${AOOCT_BSCANS:-$((4 * volume))}
  # FILE: one argument (a space stays in the path)
  # shellcheck disable=SC2054  # caps, not an array's commas
  sink=(videoconvert ! video/x-raw,format=I420 ! x264enc speed-preset=ultrafast
    tune=zerolatency ! mp4mux ! filesink location="$file")
else
  live=true
  latency=$((volume * 10000000))
  bscans=${AOOCT_BSCANS:--1}
  # shellcheck disable=SC2206  # AOOCT_VIDEOSINK: a pipeline fragment
  sink=(videoconvert ! ${AOOCT_VIDEOSINK:-autovideosink})
fi

# shellcheck disable=SC2086
gst-launch-1.0 -e \
  aooctsrc is-live=$live num-buffers="$bscans" bscans-per-volume="$volume" \
    calibration-file="$cal" \
  ! aooctdcsub ! aooctpad ! aooctkmap wavelength-file="$cal" \
  ! aooctdisp a2=8 a3=-2 ! aooctfft ! tee name=t \
  compositor name=mix background=black latency=$latency \
    sink_0::xpos=0 sink_1::xpos=400 sink_2::xpos=800 \
  ! video/x-raw,width=1200,height=400 ! "${sink[@]}" \
  t. ! aooctnorm $crop dynamic-range=50 ! $bqueue ! videoconvert ! $pane ! mix.sink_0 \
  t. ! queue ! aooctenface bscans-per-volume="$volume" $crop dynamic-range=6 \
     ! videoconvert ! $pane ! mix.sink_1 \
  t. ! queue ! aooctrender bscans-per-volume="$volume" $crop dynamic-range=40 $render \
     ! videoconvert ! $pane ! mix.sink_2
[ -z "$file" ] || echo "aooct: views written to $file"
