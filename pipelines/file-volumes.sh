#!/usr/bin/env bash
# File job: a raw file of several volumes in the spec's layout (section 0:
# uint16 little-endian, samples of an A-line contiguous, A-lines, B-scans,
# volumes one after another, no header) read with aooctfilesrc,
# reconstructed, and written as an image stack of one PNG per B-scan named
# by volume and B-scan index: OUTDIR/vol000-bscan0000.png, ... (aooct-stack
# numbers the files; progressreport prints how far the job is).
#
#   pipelines/file-volumes.sh [RAWFILE [OUTDIR]]   (default OUTDIR: out/volumes)
#   AOOCT_SAMPLES=N            samples per A-line (default 832)
#   AOOCT_ALINES=M             A-lines per B-scan (default 240)
#   AOOCT_BSCANS_PER_VOLUME=B  B-scans per volume (default 100)
#   AOOCT_WAVELENGTH_FILE=F    the spectrometer's calibration (aooctkmap
#                              wavelength-file; default OUTDIR/calibration.txt)
#   AOOCT_A2, AOOCT_A3         dispersion coefficients (default 8, -2)
#   AOOCT_PAD_SIZE=P1          aooctpad size (default 0: the next power of
#                              two >= N, at least 2048, so any camera width
#                              works)
#   AOOCT_VOLUMES=V            without RAWFILE: the script first records V
#                              volumes (default 2) of aooctsrc's retina to
#                              OUTDIR/volumes.raw, with their calibration
#   AOOCT_OVERWRITE=1          replace the stack of an earlier run in OUTDIR
#                              (its images are removed first); without it
#                              an earlier run's files stop the job before
#                              any is replaced
#   AOOCT_SKIP_BOOTSTRAP=1     use the aooct already on GST_PLUGIN_PATH
#                              (else: installs missing runtime packages only;
#                              build aooct first with scripts/bootstrap.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# what running needs, no build tools (scripts/setup/runtime-deps.sh)
# shellcheck source=../scripts/setup/runtime-deps.sh
source "$root/scripts/setup/runtime-deps.sh"
stack=$(command -v aooct-stack || echo "${AOOCT_BUILD:-$root/build}/tools/aooct-stack")

raw=${1:-}
out=${2:-$root/out/volumes}
n=${AOOCT_SAMPLES:-832}
m=${AOOCT_ALINES:-240}
b=${AOOCT_BSCANS_PER_VOLUME:-100}
cal=${AOOCT_WAVELENGTH_FILE:-$out/calibration.txt}
mkdir -p "$out"
overwrite=()
if [ "${AOOCT_OVERWRITE:-}" = 1 ]; then
  rm -f "$out"/vol*-bscan*.png
  overwrite=(--overwrite)
fi

if [ -z "$raw" ]; then
  raw=$out/volumes.raw
  v=${AOOCT_VOLUMES:-2}
  # the synthetic camera sweeps across the retina once per volume
  gst-launch-1.0 -q aooctsrc num-buffers=$((v * b)) samples="$n" alines="$m" \
    bscans-per-volume="$b" seed=7 calibration-file="$cal" \
    ! filesink location="$raw"
fi

# A raw file says nothing about its geometry: check that it holds whole
# volumes before spending time on it.
vol_bytes=$((n * m * b * 2))
size=$(stat -c %s "$raw")
if [ $((size % vol_bytes)) -ne 0 ]; then
  echo "$raw: $size bytes is not a whole number of volumes of" \
    "$b B-scans x $m A-lines x $n samples x 2 bytes ($vol_bytes bytes)" >&2
  exit 1
fi
echo "aooct: $raw: $((size / vol_bytes)) volume(s) of $b B-scans"

# aooctfilesrc reads the B-scans with several threads (filesrc !
# rawvideoparse works too, slower); framerate only sets timestamps.
"$stack" "${overwrite[@]}" --bscans-per-volume="$b" \
  --location="$out/vol{volume}-bscan{bscan}.png" \
  aooctfilesrc location="$raw" format=gray16-le width="$n" height="$m" \
  ! progressreport format=percent update-freq=1 \
  ! aooctdcsub ! aooctpad size="${AOOCT_PAD_SIZE:-0}" factor=2 \
  ! aooctkmap wavelength-file="$cal" \
  ! aooctdisp a2="${AOOCT_A2:-8}" a3="${AOOCT_A3:--2}" \
  ! aooctfft ! aooctnorm dynamic-range=50 \
  ! pngenc

echo "aooct: image stack in $out/vol*-bscan*.png"
