#!/usr/bin/env bash
# Runs pipelines/file-volumes.sh on a raw file of 2 volumes x 3 B-scans
# (recorded by the script from aooctsrc) and checks: one PNG per B-scan,
# named volVVV-bscanBBBB, of the right size; the progress report; the
# depth-scale.txt sidecar (um per row from the calibration); and that
# the file path gives byte for byte the images of the same camera data sent
# straight through the chain (so the raw layout, the B-scan order and the
# volume/B-scan numbering are right).  Then a raw file one B-scan short
# must be refused with a message that names the geometry.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export AOOCT_SKIP_BOOTSTRAP=1 AOOCT_BSCANS_PER_VOLUME=3 AOOCT_VOLUMES=2

"$root/pipelines/file-volumes.sh" "" "$out/stack" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
names=$(cd "$out/stack" && ls vol*-bscan*.png | tr '\n' ' ')
want="vol000-bscan0000.png vol000-bscan0001.png vol000-bscan0002.png vol001-bscan0000.png vol001-bscan0001.png vol001-bscan0002.png "
[ "$names" = "$want" ] || { echo "files: $names"; echo "expected: $want"; exit 1; }
size=$(od -An -tu1 -j16 -N8 "$out/stack/vol001-bscan0002.png" | awk '{print $3*256+$4 "x" $7*256+$8}')
[ "$size" = "240x1024" ] || { echo "PNG is $size, expected 240x1024"; exit 1; }
grep -q 'progressreport.*%' "$out/log" || { cat "$out/log"; echo "no progress report"; exit 1; }
[ "$(stat -c %s "$out/stack/volumes.raw")" -eq $((6 * 832 * 240 * 2)) ] || { echo "volumes.raw size"; exit 1; }
# the depth scale sidecar: lambda0 lambda1 (N - 1) / (2 P1 |lambda1 - lambda0|)
# from the first and last line of the calibration file, N 832, P1 2048
um=$(grep -v '^#' "$out/stack/calibration.txt" | awk 'NR == 1 { a = $1 } { b = $1 }
  END { d = b - a; if (d < 0) d = -d; printf "%.6f", a * b * 831 / (2 * 2048 * d) / 1000 }')
got=$(sed -n 's/^um-per-row=//p' "$out/stack/depth-scale.txt")
awk -v g="$got" -v u="$um" 'BEGIN { d = g - u; exit !(d < 1e-5 && d > -1e-5) }' ||
  { cat "$out/stack/depth-scale.txt"; echo "um-per-row $got, expected $um"; exit 1; }
grep -qx 'rows=1024' "$out/stack/depth-scale.txt" && grep -qx 'first-row-um=0' "$out/stack/depth-scale.txt" ||
  { cat "$out/stack/depth-scale.txt"; exit 1; }

# the same camera data (same seed) straight through the same chain
mkdir "$out/direct"
gst-launch-1.0 -q aooctsrc num-buffers=6 bscans-per-volume=3 seed=7 \
  ! aooctdcsub ! aooctpad size=2048 factor=2 \
  ! aooctkmap wavelength-file="$out/stack/calibration.txt" \
  ! aooctdisp a2=8 a3=-2 ! aooctfft ! aooctnorm dynamic-range=50 \
  ! pngenc ! multifilesink location="$out/direct/%d.png"
i=0
for f in $want; do
  cmp -s "$out/stack/$f" "$out/direct/$i.png" || { echo "$f differs from B-scan $i sent directly"; exit 1; }
  i=$((i + 1))
done
# B-scans differ from each other (the check above can tell them apart)
! cmp -s "$out/direct/0.png" "$out/direct/1.png" || { echo "B-scans 0 and 1 are identical"; exit 1; }
echo "file-volumes: 2 volumes x 3 B-scans, named by volume and B-scan, identical to the direct path"

# a file that is not whole volumes is refused before any work
head -c $((5 * 832 * 240 * 2)) "$out/stack/volumes.raw" >"$out/short.raw"
if AOOCT_WAVELENGTH_FILE="$out/stack/calibration.txt" \
  "$root/pipelines/file-volumes.sh" "$out/short.raw" "$out/short" >"$out/log" 2>&1; then
  echo "a file of 5 B-scans was accepted as volumes of 3"; exit 1
fi
grep -q 'not a whole number of volumes' "$out/log" || { cat "$out/log"; exit 1; }
echo "file-volumes: a partial volume is refused: $(grep 'not a whole' "$out/log")"

# aooct-stack itself: a stream that ends inside a volume, a bad template
stack=${AOOCT_BUILD:?}/tools/aooct-stack
mkdir "$out/tool"
if "$stack" -b 4 -l "$out/tool/v{volume:2}_b{bscan:1}.png" \
  videotestsrc num-buffers=6 ! video/x-raw,width=16,height=8 ! pngenc >"$out/log" 2>&1; then
  echo "aooct-stack accepted 6 B-scans as volumes of 4"; exit 1
fi
grep -q 'last volume is incomplete: 2 of 4' "$out/log" || { cat "$out/log"; exit 1; }
[ -f "$out/tool/v01_b1.png" ] && [ "$(ls "$out/tool" | wc -l)" -eq 6 ] || { ls "$out/tool"; exit 1; }
rc=0; "$stack" -b 4 -l "x{frame}.png" fakesrc ! fakesink >"$out/log" 2>&1 || rc=$?
[ $rc -eq 2 ] && grep -q 'unknown field {frame}' "$out/log" || { cat "$out/log"; exit 1; }
echo "aooct-stack: incomplete last volume and bad template reported"
