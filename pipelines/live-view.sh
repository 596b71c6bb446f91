#!/usr/bin/env bash
# Live view: the synthetic camera (aooctsrc, delivering B-scans at its
# frame rate like a real camera) through the whole chain to a window.
# To tune a2/a3 or the display range while watching, use aooct-view
# (docs/howto.md), or build the chain in your application
# (examples/aooct-embed.c shows how).
#
#   pipelines/live-view.sh
#   AOOCT_BSCANS=N            stop after N B-scans (default: run until closed)
#   AOOCT_VIDEOSINK=ELEMENT   where to show it (default autovideosink;
#                             the test suite uses fakesink)
#   AOOCT_SKIP_BOOTSTRAP=1    use the aooct already on GST_PLUGIN_PATH
#                             (else: installs missing runtime packages only;
#                             build aooct first with scripts/bootstrap.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# what running needs, no build tools (scripts/setup/runtime-deps.sh)
# shellcheck source=../scripts/setup/runtime-deps.sh
source "$root/scripts/setup/runtime-deps.sh"
cal=$(mktemp --suffix=.txt); trap 'rm -f "$cal"' EXIT

# is-live=true: B-scans arrive at 100/s as from a camera; the sink shows
# each when it is due and drops late ones (qos) instead of falling behind.
# shellcheck disable=SC2086
gst-launch-1.0 -e \
  aooctsrc is-live=true num-buffers="${AOOCT_BSCANS:--1}" calibration-file="$cal" \
  ! aooctdcsub ! aooctpad ! aooctkmap wavelength-file="$cal" \
  ! aooctdisp a2=8 a3=-2 ! aooctfft ! aooctnorm dynamic-range=50 \
  ! videoconvert ! ${AOOCT_VIDEOSINK:-autovideosink}
