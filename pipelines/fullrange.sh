#!/usr/bin/env bash
# Complex full-range OCT (spec section 9, aooctfullrange): the synthetic
# camera with a phase carrier across the A-lines and the retina moved
# across zero delay, reconstructed twice from the same frames, the
# standard way and full range, written side by side as one PNG per B-scan:
# left the standard image (depth bins 0 .. P1/2, where the part of the
# retina before zero delay folds back on top of the rest as a mirror
# image), right the full-range image (signed bins -P1/2 .. P1/2, zero
# delay in the middle row, the retina unfolded at its true depths).  The
# standard image's zero delay is lined up with the full-range one's.
#
#   pipelines/fullrange.sh [OUTDIR]         (default OUTDIR: out/fullrange)
#   AOOCT_BSCANS=B        B-scans (default 3)
#   AOOCT_CARRIER=RAD     phase carrier in rad per A-line (default 1.5)
#   AOOCT_OFFSET=UM       retina shift in um (default -400: across zero delay)
#   AOOCT_SKIP_BOOTSTRAP=1  use the aooct already on GST_PLUGIN_PATH
#                           (else: installs missing runtime packages only;
#                           build aooct first with scripts/bootstrap.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# what running needs, no build tools (scripts/setup/runtime-deps.sh)
# shellcheck source=../scripts/setup/runtime-deps.sh
source "$root/scripts/setup/runtime-deps.sh"

out=${1:-$root/out/fullrange}
b=${AOOCT_BSCANS:-3}
mkdir -p "$out"
rm -f "$out"/bscan-*.png
cal="$out/calibration.txt"

# The default camera's wavelength increases along the pixels (k
# decreases), so with a positive carrier sideband=lower shows the image
# the right way up, and then the real path's dispersion pair (a2=8 a3=-2)
# compensates (section 9, "which way up").  The standard image (1024 rows)
# sits at the bottom right-aligned half of the full-range one (2048 rows):
# row 0 of both is zero delay.
gst-launch-1.0 -q aooctsrc num-buffers="$b" seed=7 \
  carrier="${AOOCT_CARRIER:-1.5}" depth-offset="${AOOCT_OFFSET:--400}" speckle-width=3 \
  calibration-file="$cal" \
  ! tee name=t \
  compositor name=mix background=black \
    sink_0::xpos=0 sink_0::ypos=1024 sink_1::xpos=248 sink_1::ypos=0 \
  ! video/x-raw,format=GRAY8,width=488,height=2048 \
  ! pngenc ! multifilesink location="${out//%/%%}/bscan-%03d.png" \
  t. ! queue ! aooctdcsub ! aooctpad size=2048 factor=2 \
    ! aooctkmap wavelength-file="$cal" ! aooctdisp a2=8 a3=-2 \
    ! aooctfft ! aooctnorm dynamic-range=50 ! video/x-raw,format=GRAY8 \
    ! mix.sink_0 \
  t. ! queue ! aooctdcsub ! aooctfullrange sideband=lower \
    ! aooctpad size=2048 factor=2 \
    ! aooctkmap wavelength-file="$cal" ! aooctdisp a2=8 a3=-2 \
    ! aooctfft ! aooctnorm dynamic-range=50 ! video/x-raw,format=GRAY8 \
    ! mix.sink_1

echo "aooct: $b B-scans, standard (left, zero delay at the middle row) and" \
  "full range (right) in $out/bscan-*.png"
