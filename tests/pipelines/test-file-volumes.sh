#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs pipelines/file-volumes.sh on a raw file of 2 volumes x 3 B-scans
# (recorded by the script from aooctsrc) and checks: one PNG per B-scan,
# named volVVV-bscanBBBB, of the right size; the progress report; the
# depth-scale.txt sidecar (um per row from the calibration); and that
# the file path gives byte for byte the images of the same camera data sent
# straight through the chain (so the raw layout, the B-scan order and the
# volume/B-scan numbering are right).  Then a raw file one B-scan short
# must be refused with a message that names the geometry.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../util/aooct-test-png.sh
. "$root/tests/util/aooct-test-png.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export AOOCT_SKIP_BOOTSTRAP=1 AOOCT_BSCANS_PER_VOLUME=3 AOOCT_VOLUMES=2

"$root/pipelines/file-volumes.sh" "" "$out/stack" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
names=$(cd "$out/stack" && ls vol*-bscan*.png | tr '\n' ' ')
want="vol000-bscan0000.png vol000-bscan0001.png vol000-bscan0002.png vol001-bscan0000.png vol001-bscan0001.png vol001-bscan0002.png "
[ "$names" = "$want" ] || { echo "files: $names"; echo "expected: $want"; exit 1; }
expect_png_size "$out/stack/vol001-bscan0002.png" 240x1024
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

# an earlier run's stack is never replaced silently (issue 41): the
# script stops before aooct-stack writes anything; AOOCT_OVERWRITE=1
# replaces it
touch -d 2000-01-01 "$out/stack/vol000-bscan0000.png"
rc=0; "$root/pipelines/file-volumes.sh" "$out/stack/volumes.raw" "$out/stack" >"$out/log" 2>&1 || rc=$?
[ $rc -ne 0 ] && grep -q 'exists .*--overwrite' "$out/log" &&
  [ "$(stat -c %Y "$out/stack/vol000-bscan0000.png")" = "$(date -d 2000-01-01 +%s)" ] ||
  { cat "$out/log"; echo "file-volumes.sh replaced an earlier run's stack (rc $rc)"; exit 1; }
AOOCT_OVERWRITE=1 AOOCT_WAVELENGTH_FILE="$out/stack/calibration.txt" \
  "$root/pipelines/file-volumes.sh" "$out/stack/volumes.raw" "$out/stack" >"$out/log" 2>&1 ||
  { cat "$out/log"; echo "AOOCT_OVERWRITE=1 refused"; exit 1; }
cmp -s "$out/stack/vol000-bscan0000.png" "$out/direct/0.png" ||
  { echo "AOOCT_OVERWRITE=1: not the same stack again"; exit 1; }
echo "file-volumes: an earlier run's stack refused, AOOCT_OVERWRITE=1 replaces it"

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

# aooct-stack: a pipeline that fails while it starts is an error with the
# element's reason, never "0 images" and exit 0 (issue 19, item 1); each
# way of failing at the start: no calibration, a calibration one line
# short, an impossible property, a DC mode without its file
cal="$out/stack/calibration.txt"
head -n -1 "$cal" >"$out/short-cal.txt"
chain_src="aooctsrc num-buffers=2 ! aooctdcsub"
for c in \
  "aooctpad ! aooctkmap|neither wavelength-file nor wavelength-coeffs" \
  "aooctpad ! aooctkmap wavelength-file=$out/short-cal.txt|too few records" \
  "aooctpad factor=3 ! aooctkmap wavelength-file=$cal|factor=3" \
  "aooctpad ! aooctkmap wavelength-file=$cal mode=x|no property" \
  ; do
  mid=${c%|*}; want=${c#*|}
  rc=0
  # shellcheck disable=SC2086
  "$stack" -b 2 -l "$out/tool/f{volume}{bscan}.png" $chain_src ! $mid \
    ! aooctdisp ! aooctfft ! aooctnorm ! pngenc >"$out/log" 2>&1 || rc=$?
  [ $rc -ne 0 ] || { cat "$out/log"; echo "aooct-stack exited 0 for: $mid"; exit 1; }
  grep -q -- "$want" "$out/log" || { cat "$out/log"; echo "no '$want' for: $mid"; exit 1; }
  ! grep -q '0 images' "$out/log" || { cat "$out/log"; echo "'0 images' reported as a result"; exit 1; }
done
rc=0
"$stack" -b 2 -l "$out/tool/g{volume}{bscan}.png" aooctsrc num-buffers=2 \
  ! aooctdcsub mode=background ! aooctpad ! aooctkmap wavelength-file="$cal" \
  ! aooctdisp ! aooctfft ! aooctnorm ! pngenc >"$out/log" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -q 'mode=background needs background-file' "$out/log" || { cat "$out/log"; exit 1; }
# an empty stream is not a whole number of volumes
rc=0
"$stack" -b 2 -l "$out/tool/e{volume}{bscan}.png" videotestsrc num-buffers=0 \
  ! pngenc >"$out/log" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -q 'produced no images' "$out/log" || { cat "$out/log"; exit 1; }
# GLib's messages in the user's character set, not '?' for its quotes
if locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then
  rc=0
  # (a folder that cannot be made: a file is in its place; missing folders
  # are made)
  : >"$out/not-a-dir"
  LC_ALL=C.UTF-8 "$stack" -b 1 -l "$out/not-a-dir/x{volume}.png" \
    videotestsrc num-buffers=1 ! pngenc >"$out/log" 2>&1 || rc=$?
  [ $rc -eq 1 ] && grep -q 'not-a-dir.*Not a directory' "$out/log" && ! grep -q '?' "$out/log" \
    || { cat "$out/log"; echo "write error message"; exit 1; }
fi
# write errors name the image's file, never a temporary one (issue 33,
# item 18's class), for the images and the depth-scale sidecar
mkdir "$out/w"; mkdir "$out/w/vol000.png"
# (--overwrite: else the folder in the way is refused as a file there from before)
rc=0; "$stack" --overwrite -b 1 -l "$out/w/vol{volume}.png" videotestsrc num-buffers=1 ! pngenc \
  >"$out/log" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -q "cannot write $out/w/vol000.png: " "$out/log" &&
  ! grep -Eq 'vol000\.png\.[A-Za-z0-9]{6}' "$out/log" && [ "$(ls "$out/w")" = vol000.png ] ||
  { cat "$out/log"; ls "$out/w"; echo "image write error"; exit 1; }
rm -r "$out/w"
# ... and the script then fails without saying where the stack is
rc=0
AOOCT_WAVELENGTH_FILE="$out/short-cal.txt" AOOCT_BSCANS_PER_VOLUME=3 \
  "$root/pipelines/file-volumes.sh" "$out/stack/volumes.raw" "$out/badcal" >"$out/log" 2>&1 || rc=$?
[ $rc -ne 0 ] && grep -q 'too few records' "$out/log" && ! grep -q 'image stack in' "$out/log" \
  || { cat "$out/log"; echo "file-volumes.sh with a short calibration"; exit 1; }
# a setting that does nothing: the element's warning is shown, the job runs
rc=0
"$stack" -b 2 -l "$out/tool/w{volume}{bscan}.png" aooctsrc num-buffers=2 \
  ! aooctdcsub background-file="$cal" ! aooctpad ! aooctkmap wavelength-file="$cal" \
  ! aooctdisp ! aooctfft ! aooctnorm ! pngenc >"$out/log" 2>&1 || rc=$?
[ $rc -eq 0 ] && grep -q 'warning: aooctdcsub0: background-file=.* is ignored' "$out/log" ||
  { cat "$out/log"; echo "aooct-stack: no warning for background-file without mode=background"; exit 1; }
echo "aooct-stack: failures while starting are errors with their reason"

# files there from before are never replaced (issue 41): the first one (or
# depth-scale.txt) before anything runs, exit 2; a later one when its turn
# comes, exit 1, the images before it written and the old file as it was;
# --overwrite replaces them.  Folders of the template are made; a path with
# a space given as one argument stays one path (gst-launch's tokens)
mkdir -p "$out/old space"
cp "$out/stack/volumes.raw" "$out/old space/in put.raw"
pipe=(aooctfilesrc location="$out/old space/in put.raw" format=gray16-le width=832 height=240
  ! aooctdcsub ! aooctpad size=2048 ! aooctkmap wavelength-file="$out/stack/calibration.txt"
  ! aooctfft ! aooctnorm ! pngenc)
"$stack" -b 3 -l "$out/old space/new/dir/v{volume}-{bscan}.png" "${pipe[@]}" >"$out/log" 2>&1 ||
  { cat "$out/log"; echo "a path with a space, a template with new folders"; exit 1; }
[ "$(ls "$out/old space/new/dir" | wc -l)" = 7 ] || { ls "$out/old space/new/dir"; exit 1; }
echo old >"$out/keep.png"
for case in "v000-0000.png|2" "depth-scale.txt|2" "v001-0001.png|1"; do
  f=${case%|*} want=${case#*|}
  rm -rf "$out/again"; mkdir "$out/again"
  cp "$out/keep.png" "$out/again/$f"
  rc=0; "$stack" -b 3 -l "$out/again/v{volume}-{bscan}.png" "${pipe[@]}" >"$out/log" 2>&1 || rc=$?
  [ $rc = "$want" ] && grep -q "again/$f exists .*--overwrite" "$out/log" && cmp -s "$out/keep.png" "$out/again/$f" ||
    { cat "$out/log"; echo "$f there from before: rc $rc, expected $want"; exit 1; }
  if [ "$want" = 1 ]; then
    # the images before it are written, and counted
    [ "$(ls "$out/again" | grep -c '^v')" = 5 ] && grep -q '^aooct-stack: 4 images' "$out/log" ||
      { cat "$out/log"; ls "$out/again"; exit 1; }
  else
    [ "$(ls "$out/again")" = "$f" ] || { ls "$out/again"; echo "files written after a refusal"; exit 1; }
  fi
  "$stack" --overwrite -b 3 -l "$out/again/v{volume}-{bscan}.png" "${pipe[@]}" >"$out/log" 2>&1 ||
    { cat "$out/log"; echo "--overwrite over $f"; exit 1; }
  cmp -s "$out/again/v000-0000.png" "$out/old space/new/dir/v000-0000.png" || { echo "--overwrite: wrong image"; exit 1; }
done
echo "aooct-stack: images and depth-scale.txt there from before refused (before the run, or in it), --overwrite replaces; a path with a space, new folders"

# a camera wider than 2048 pixels (issue 19, item 2): aooctpad picks its
# size from the width
AOOCT_SAMPLES=2500 AOOCT_ALINES=16 AOOCT_BSCANS_PER_VOLUME=2 AOOCT_VOLUMES=1 \
  "$root/pipelines/file-volumes.sh" "" "$out/wide" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
[ "$(ls "$out/wide"/vol*-bscan*.png | wc -l)" -eq 2 ] || { ls "$out/wide"; exit 1; }
expect_png_size "$out/wide/vol000-bscan0001.png" 16x2048
echo "file-volumes: a 2500-pixel camera works"

# aooct-stack never writes two images to one file (issue 33, item 4): a
# template that cannot tell every image (every TIFF volume) apart is
# refused before the pipeline starts, nothing written; a name that still
# comes round again (fields run together) stops the run, and the count
# reported is the files that exist
src6="videotestsrc num-buffers=6 ! video/x-raw,width=16,height=8"
for t in "one.png|3" "v{volume}.png|3" "b{bscan}.png|3" "b{bscan:2}x.png|1" \
  "v{volume:1}.png|2"; do
  mkdir "$out/tpl"
  rc=0; "$stack" -b "${t#*|}" -l "$out/tpl/${t%|*}" $src6 ! pngenc >"$out/log" 2>&1 || rc=$?
  [ $rc -eq 2 ] && grep -q 'each over the one before' "$out/log" && [ -z "$(ls "$out/tpl")" ] ||
    { cat "$out/log"; ls "$out/tpl"; echo "template ${t%|*}, -b ${t#*|}: rc $rc"; exit 1; }
  rm -r "$out/tpl"
done
mkdir "$out/tpl"
"$stack" -b 1 -l "$out/tpl/v{volume}.png" $src6 ! pngenc >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
[ "$(ls "$out/tpl" | wc -l)" -eq 6 ] || { ls "$out/tpl"; echo "-b 1 with {volume} only"; exit 1; }
rm -r "$out/tpl"; mkdir "$out/tpl"
# 12 volumes of 12: volume 11 B-scan 0 and volume 1 B-scan 10 are both "110"
rc=0; "$stack" -b 12 -l "$out/tpl/{volume:1}{bscan:1}.png" videotestsrc num-buffers=144 \
  ! video/x-raw,width=4,height=4 ! pngenc >"$out/log" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -q 'over an earlier one' "$out/log" &&
  grep -q "^aooct-stack: $(ls "$out/tpl" | wc -l) images" "$out/log" ||
  { cat "$out/log"; ls "$out/tpl" | wc -l; echo "a repeated name was not refused"; exit 1; }
rm -r "$out/tpl"
# (its output first: under pipefail a probe's exit status 2 would fail
# the pipeline into grep whatever grep found)
probe=$(timeout 20 "$stack" --tiff -b 1 -l "$out/probe-{volume}.tif" fakesrc num-buffers=0 2>&1 || true)
if [[ $probe == *"no libtiff"* ]]; then
  echo "aooct-stack: no libtiff, TIFF templates not checked"
else
  for t in "stack.tif|has no {volume}" "v{volume}.png|must end in .tif"; do
    mkdir "$out/tpl"
    rc=0; "$stack" --tiff -b 3 -l "$out/tpl/${t%|*}" $src6,format=GRAY8 >"$out/log" 2>&1 || rc=$?
    [ $rc -eq 2 ] && grep -q "${t#*|}" "$out/log" && [ -z "$(ls "$out/tpl")" ] ||
      { cat "$out/log"; echo "--tiff template ${t%|*}: rc $rc"; exit 1; }
    rm -r "$out/tpl"
  done
fi
echo "aooct-stack: templates that would overwrite are refused"

# ... and writes images only in the format their name says (item 10): raw
# video without an encoder, an encoder other than the extension's, a stream
# that is no image at all are refused before the first file; an extension
# in capitals and the second name of a format are fine
for c in "x{volume}{bscan}.png||ends in raw video" \
  "x{volume}{bscan}.jpg|! pngenc|does not end in .png" \
  "x{volume}{bscan}.png|! jpegenc|does not end in .jpg" \
  "x{volume}{bscan}.raw|! pngenc|does not end in .png"; do
  IFS='|' read -r name enc want <<<"$c"
  mkdir "$out/fmt"
  rc=0; "$stack" -b 3 -l "$out/fmt/$name" $src6 $enc >"$out/log" 2>&1 || rc=$?
  [ $rc -eq 1 ] && grep -q "$want" "$out/log" && [ -z "$(ls "$out/fmt")" ] ||
    { cat "$out/log"; ls "$out/fmt"; echo "$name $enc: rc $rc"; exit 1; }
  rm -r "$out/fmt"
done
mkdir "$out/fmt"
rc=0; "$stack" -b 3 -l "$out/fmt/a{volume}{bscan}.png" audiotestsrc num-buffers=3 >"$out/log" 2>&1 || rc=$?
[ $rc -eq 1 ] && grep -q 'audio/x-raw, not an image format' "$out/log" || { cat "$out/log"; exit 1; }
"$stack" -b 3 -l "$out/fmt/x{volume}{bscan}.JPEG" $src6 ! jpegenc >"$out/log" 2>&1 &&
  "$stack" -b 3 -l "$out/fmt/x{volume}{bscan}.jpg" $src6 ! jpegenc >>"$out/log" 2>&1 ||
  { cat "$out/log"; echo "jpegenc into .JPEG / .jpg refused"; exit 1; }
[ "$(ls "$out/fmt" | wc -l)" -eq 12 ] || { ls "$out/fmt"; exit 1; }
echo "aooct-stack: images only under their format's name"

# numeric options: 0, negative, not a number are usage errors naming the
# option (issue 33, item 22's class)
for b in 0 -1 x 3x; do
  rc=0; LC_ALL=C.UTF-8 "$stack" -b "$b" -l "$out/n{volume}{bscan}.png" $src6 ! pngenc >"$out/log" 2>&1 || rc=$?
  [ $rc -eq 2 ] && grep -q -- "$b" "$out/log" && grep -q -- '-b\|bscans-per-volume' "$out/log" && ! grep -q '?' "$out/log" ||
    { cat "$out/log"; echo "-b $b: rc $rc"; exit 1; }
done
echo "aooct-stack: bad numbers refused"
