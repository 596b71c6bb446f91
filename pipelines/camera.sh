#!/usr/bin/env bash
# Live camera: a GigE Vision or USB3 Vision camera through Aravis
# (aravissrc, Debian package libaravis-0.8-0) straight into the chain -- no
# converter: aravissrc gives video/x-raw GRAY16_LE (Mono16) or GRAY8, which
# aooctdcsub takes as it is -- and through tee to a window and to a lossless
# FFV1 Matroska file.  The caps after aravissrc choose the camera's pixel
# format and region (width = samples per A-line, height = A-lines per
# B-scan).
#
#   pipelines/camera.sh [FILE]   (default: out/camera.mkv)
#   AOOCT_CAMERA=NAME          camera (arv-tool-0.8 lists them; default: the first)
#   AOOCT_SAMPLES, AOOCT_ALINES   region: width and height (default 512, 256)
#   AOOCT_WAVELENGTH_FILE=F    the spectrometer's calibration (aooctkmap
#                              wavelength-file); without it
#   AOOCT_WAVELENGTH_COEFFS=C  lambda(p) coefficients (default "800,0.1")
#   AOOCT_A2, AOOCT_A3         dispersion coefficients (default 0)
#   AOOCT_BSCANS=N             stop after N B-scans (default: until Ctrl-C)
#   AOOCT_VIDEOSINK=ELEMENT    where to show it (default autovideosink)
#   AOOCT_TAP=FILE             also write aooctnorm's frames (raw) to FILE
#   AOOCT_SKIP_BOOTSTRAP=1     use the aooct already on GST_PLUGIN_PATH
#                              (else: installs missing runtime packages only;
#                              build aooct first with scripts/bootstrap.sh)
# To try it without a camera: Aravis's fake GigE Vision camera (package
# aravis-tools), e.g. on loopback: arv-fake-gv-camera-0.8 -i 127.0.0.1 &
# AOOCT_CAMERA=127.0.0.1 pipelines/camera.sh  (tests/pipelines/test-camera.sh does
# this inside a private network namespace).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# what running needs, no build tools (scripts/setup/runtime-deps.sh)
aooct_extra_packages=(libaravis-0.8-0 gstreamer1.0-libav)
# shellcheck source=../scripts/setup/runtime-deps.sh
source "$root/scripts/setup/runtime-deps.sh"
file=${1:-$root/out/camera.mkv}
mkdir -p "$(dirname "$file")"

camera=()
[ -z "${AOOCT_CAMERA:-}" ] || camera=(camera-name="$AOOCT_CAMERA")
if [ -n "${AOOCT_WAVELENGTH_FILE:-}" ]; then
  kmap=(wavelength-file="$AOOCT_WAVELENGTH_FILE")
else
  kmap=(wavelength-coeffs="${AOOCT_WAVELENGTH_COEFFS:-800,0.1}")
fi
# (an array: AOOCT_TAP's path is one argument, a space stays in it)
tap=(fakesink)
[ -z "${AOOCT_TAP:-}" ] || tap=(filesink location="$AOOCT_TAP")

# shellcheck disable=SC2086
gst-launch-1.0 -e \
  aravissrc "${camera[@]}" num-buffers="${AOOCT_BSCANS:--1}" \
  ! "video/x-raw,format=GRAY16_LE,width=${AOOCT_SAMPLES:-512},height=${AOOCT_ALINES:-256}" \
  ! aooctdcsub ! aooctpad ! aooctkmap "${kmap[@]}" \
  ! aooctdisp a2="${AOOCT_A2:-0}" a3="${AOOCT_A3:-0}" ! aooctfft ! aooctnorm \
  ! video/x-raw,format=GRAY16_LE ! tee name=t \
  t. ! queue ! videoconvert ! ${AOOCT_VIDEOSINK:-autovideosink} \
  t. ! queue ! avenc_ffv1 gop-size=1 ! matroskamux ! filesink location="$file" \
  t. ! queue ! "${tap[@]}"
echo "aooct: recorded to $file"
