#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over the GPU test suite (meson
# suite 'sanitize'; the chain test under both also runs in the ordinary
# suite), on the GPU machine:
#
#   scripts/gpu/gpu-sanitize.sh OUTDIR        (device tool, carry .gstkit)
out=${1:?usage: scripts/gpu/gpu-sanitize.sh OUTDIR}
mkdir -p "$out"
# shellcheck disable=SC1091
source .gstkit/enter.sh || exit 1
set -u
B=/tmp/gpu-build
if ! (meson setup "$B" . -Dcuda=enabled -Dfault-injection=true --reconfigure 2>/dev/null \
      || meson setup "$B" . -Dcuda=enabled -Dfault-injection=true) > "$out/build.log" 2>&1 \
    || ! meson compile -C "$B" >> "$out/build.log" 2>&1; then
  tail -n 40 "$out/build.log"; exit 1
fi
meson test -C "$B" --suite sanitize --print-errorlogs > "$out/sanitize.log" 2>&1
rc=$?
cp "$B/meson-logs/testlog.txt" "$out/sanitize-testlog.txt"
grep -E "^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped|Timeout):" "$out/sanitize.log"
grep -hE "^(memcheck|racecheck): " "$out/sanitize-testlog.txt"
exit $rc
