#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# aooct-stack --hdf5 (and the ImageJ tags of --tiff): volumes as files a
# lab's tools open.  2 volumes x 3 B-scans from aooctsrc, written as HDF5
# and read back with h5dump (hdf5-tools) and with h5py from PyPI (pip into
# a venv of the build folder); the pixels byte for byte those of the PNG
# stack of the same chain; the attributes (geometry, crop, calibration,
# dispersion, window, depth scale = aooctnorm's depth-per-row, timestamps,
# plugin version); --db against a float64 computation of spec section 7's
# intensity in dB from the same complex data; the TIFF's ImageJ tags and
# the same settings in its description (tifffile); and bad input: a folder that cannot be written, a full disk
# (ulimit -f), a volume over --memory-limit, an incomplete last
# volume (HDF5 and TIFF alike: not kept), each with a clear message and no
# half-written file left, and the summary counting only the files kept;
# files there from before (volumes, depth-scale.txt) never replaced without
# --overwrite; the units/values attributes and the calibration's absolute
# path.
# Skipped (77) where aooct-stack was built without libhdf5 or h5dump is
# missing; the h5py part is skipped (77, after the rest passed) where pip
# cannot install h5py.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${AOOCT_BUILD:?}
stack=$build/tools/aooct-stack
"$stack" --help-all | grep -q -- --hdf5 || { echo "aooct-stack has no --hdf5 (no libhdf5-dev)"; exit 77; }
command -v h5dump >/dev/null || { echo "no h5dump (Debian hdf5-tools)"; exit 77; }
out=$(mktemp -d)
trap 'chmod -R u+w "$out"; rm -rf "$out"' EXIT
cal=$out/cal.txt
B=3 M=48
src="aooctsrc num-buffers=6 bscans-per-volume=$B alines=$M seed=7 calibration-file=$cal"
chain="$src ! aooctdcsub ! aooctpad size=2048 factor=2 ! aooctkmap wavelength-file=$cal
  ! aooctdisp a2=8 a3=-2 ! aooctfft window=hann"
norm="aooctnorm crop-start=10 dynamic-range=50"
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$out/h5" "$out/png" "$out/db" "$out/tif"

# --- the volumes, and the same chain as a PNG stack (pngenc takes the
# same pixels big-endian: videoconvert swaps the bytes) ------------------------
# shellcheck disable=SC2086
"$stack" --hdf5 --compress=6 -b $B -l "$out/h5/v{volume}.h5" $chain ! $norm \
  ! video/x-raw,format=GRAY16_LE >"$out/log" 2>&1 || { cat "$out/log"; fail "--hdf5"; }
[ "$(cd "$out/h5" && ls | tr '\n' ' ')" = "depth-scale.txt v000.h5 v001.h5 " ] ||
  { ls -a "$out/h5"; fail "files"; }
# shellcheck disable=SC2086
"$stack" -b $B -l "$out/png/v{volume}-b{bscan}.png" $chain ! $norm \
  ! video/x-raw,format=GRAY16_LE ! videoconvert ! video/x-raw,format=GRAY16_BE ! pngenc \
  >"$out/log" 2>&1 || { cat "$out/log"; fail "PNG stack"; }
for v in 0 1; do
  # the dataset as big-endian bytes against the PNGs' (GRAY16_BE rows of
  # 96 bytes, no padding)
  h5dump -d /volume -b BE -o "$out/v$v.be" "$out/h5/v00$v.h5" >/dev/null
  : >"$out/png$v.be"
  for b in 0 1 2; do
    gst-launch-1.0 -q filesrc location="$out/png/v00$v-b000$b.png" ! pngdec \
      ! video/x-raw,format=GRAY16_BE ! filesink location="$out/b.raw"
    cat "$out/b.raw" >>"$out/png$v.be"
  done
  [ "$(stat -c %s "$out/v$v.be")" -eq $((B * 1014 * M * 2)) ] || fail "volume $v: $(stat -c %s "$out/v$v.be") bytes"
  cmp "$out/v$v.be" "$out/png$v.be" || fail "volume $v differs from the PNG stack"
done
! cmp -s "$out/v0.be" "$out/v1.be" || fail "volumes 0 and 1 are identical"
echo "hdf5: 2 volumes of $B x 1014 x $M uint16, byte for byte the PNG stack's"
# the same camera data from a raw file, 3 B-scans per buffer (aooctnorm
# stacks them in one image): still B-scan after B-scan
# shellcheck disable=SC2086
gst-launch-1.0 -q $src ! filesink location="$out/cam.raw"
mkdir "$out/per3"
# shellcheck disable=SC2086
"$stack" --hdf5 -b $B -l "$out/per3/v{volume}.h5" \
  aooctfilesrc location="$out/cam.raw" format=gray16-le width=832 height=$M bscans-per-buffer=3 \
  ${chain#*aooctsrc*calibration-file=$cal} ! $norm ! video/x-raw,format=GRAY16_LE >"$out/log" 2>&1 ||
  { cat "$out/log"; fail "--hdf5 of 3 B-scans per buffer"; }
for v in 0 1; do
  h5dump -d /volume -b BE -o "$out/p$v.be" "$out/per3/v00$v.h5" >/dev/null
  cmp "$out/v$v.be" "$out/p$v.be" || fail "volume $v of 3 B-scans per buffer differs"
done
h5dump -d /pts_ns "$out/per3/v001.h5" | grep -q '(0): 30000000, 40000000, 50000000' ||
  { h5dump -d /pts_ns "$out/per3/v001.h5"; fail "pts_ns of 3 B-scans per buffer"; }
echo "hdf5: 3 B-scans per buffer from aooctfilesrc: the same volumes, one B-scan each"

# h5dump: layout, filters, attributes
h5dump -p -H "$out/h5/v000.h5" >"$out/dump"
grep -q 'DATASPACE  SIMPLE { ( 3, 1014, 48 )' "$out/dump" && grep -q 'H5T_STD_U16LE' "$out/dump" &&
  grep -q 'CHUNKED ( 1, 1014, 48 )' "$out/dump" && grep -q 'PREPROCESSING SHUFFLE' "$out/dump" &&
  grep -q 'COMPRESSION DEFLATE { LEVEL 6 }' "$out/dump" || { cat "$out/dump"; fail "layout"; }
h5dump -a /volume/a3 "$out/h5/v000.h5" | grep -q '(0): -2$' || fail "a3"
h5dump -a /volume/window "$out/h5/v000.h5" | grep -q '(0): "hann"' || fail "window"
h5dump -d /pts_ns "$out/h5/v001.h5" | grep -q '(0): 30000000, 40000000, 50000000' || fail "pts_ns"
# GRAY8 images: uint8; without aooctnorm upstream the chain's attributes
# are left out and the depth scale is unknown
mkdir "$out/g8"
"$stack" --hdf5 -b 2 -l "$out/g8/v{volume}.h5" videotestsrc num-buffers=2 pattern=gradient \
  ! video/x-raw,format=GRAY8,width=30,height=20 >"$out/log" 2>&1 || { cat "$out/log"; fail "GRAY8"; }
h5dump -H -A "$out/g8/v000.h5" >"$out/dump"
grep -q 'H5T_STD_U8LE' "$out/dump" && grep -q 'SIMPLE { ( 2, 20, 30 )' "$out/dump" &&
  ! grep -q 'ATTRIBUTE "pad_size"' "$out/dump" || { cat "$out/dump"; fail "GRAY8 volume"; }
h5dump -a /volume/depth_scale "$out/g8/v000.h5" | grep -q 'unknown' || fail "GRAY8: depth scale not unknown"
echo "hdf5: h5dump reads the layout (chunk per B-scan, shuffle + deflate) and attributes; GRAY8 as uint8"

# --- --db: float32 dB before normalisation, from the complex data ------------
# shellcheck disable=SC2086
"$stack" --hdf5 --db --crop-start=10 --crop-end=600 -b $B -l "$out/db/v{volume}.h5" $chain \
  >"$out/log" 2>&1 || { cat "$out/log"; fail "--db"; }
# shellcheck disable=SC2086
gst-launch-1.0 -q $chain ! filesink location="$out/complex.raw"

# --- --tiff: the depth scale as ImageJ reads it ------------------------------
# shellcheck disable=SC2086
"$stack" --tiff -b $B -l "$out/tif/v{volume}.tif" $chain ! $norm \
  ! video/x-raw,format=GRAY16_LE >"$out/log" 2>&1 || { cat "$out/log"; fail "--tiff"; }

# --- bad input -----------------------------------------------------------------
small="aooctsrc num-buffers=4 bscans-per-volume=2 alines=$M seed=7 ! aooctdcsub ! aooctpad size=2048
  ! aooctkmap wavelength-file=$cal ! aooctfft ! aooctnorm ! video/x-raw,format=GRAY16_LE"
expect_fail() { # expect_fail GREP ARGS...: exit 1, the message, no file left
  local want=$1 rc=0
  shift
  "$@" >"$out/log" 2>&1 || rc=$?
  [ $rc -eq 1 ] || { cat "$out/log"; fail "exit $rc, expected 1: $*"; }
  grep -q -- "$want" "$out/log" || { cat "$out/log"; fail "no '$want' in the message"; }
  # (the volume's own name, not the temporary NAME.partial)
  ! grep -q '\.partial' "$out/log" || { cat "$out/log"; fail "the message names a temporary file"; }
}
# a folder that cannot be made (a file in the way)
: >"$out/notadir"
# shellcheck disable=SC2086
expect_fail "notadir/.*Not a directory" \
  "$stack" --hdf5 -b 2 -l "$out/notadir/v{volume}.h5" $small
# a full disk: the file size limit (in KiB) below a volume (2 x 1024 x 48 x 2
# bytes); SIGXFSZ is ignored by aooct-stack, the write fails
mkdir "$out/full"
# shellcheck disable=SC2086
expect_fail "cannot write .*/full/v000.h5 (.* bytes): File too large" \
  bash -c 'ulimit -f 100; exec "$@"' _ "$stack" --hdf5 -b 2 -l "$out/full/v{volume}.h5" $small
# (depth-scale.txt, written whole before the volume, stays)
[ "$(ls -A "$out/full")" = depth-scale.txt ] || { ls -a "$out/full"; fail "a full disk left files"; }
# (--overwrite: the depth-scale.txt of the run above is there)
# shellcheck disable=SC2086
expect_fail "cannot .*/full/v000.tif: File too large" \
  bash -c 'ulimit -f 100; exec "$@"' _ "$stack" --overwrite --tiff -b 2 -l "$out/full/v{volume}.tif" $small
[ "$(ls -A "$out/full")" = depth-scale.txt ] || { ls -a "$out/full"; fail "a full disk left TIFF files"; }
# a volume over the limit: refused before anything of it is written
mkdir "$out/big"
# shellcheck disable=SC2086
expect_fail "volume 0 would be 2 B-scans x 1024 x 48 pixels x 2 bytes = 196608 bytes, more than --memory-limit=102400" \
  "$stack" --hdf5 --memory-limit=100K -b 2 -l "$out/big/v{volume}.h5" $small
[ "$(ls -A "$out/big")" = depth-scale.txt ] || { ls -a "$out/big"; fail "an oversized volume left files"; }
# shellcheck disable=SC2086
"$stack" --overwrite --hdf5 --memory-limit=192K -b 2 -l "$out/big/v{volume}.h5" $small >"$out/log" 2>&1 ||
  { cat "$out/log"; fail "a volume of exactly the limit refused"; }
# an incomplete last volume: its HDF5 file is not kept (its missing B-scans
# would read as zeros)
mkdir "$out/short"
# shellcheck disable=SC2086
expect_fail "last volume is incomplete: 1 of 3" \
  "$stack" --hdf5 -b 3 -l "$out/short/v{volume}.h5" $small
[ "$(cd "$out/short" && ls -A | tr '\n' ' ')" = "depth-scale.txt v000.h5 " ] || { ls -a "$out/short"; fail "incomplete volume kept"; }
# usage errors
rc=0; "$stack" --db -b 2 fakesrc >"$out/log" 2>&1 || rc=$?
[ $rc -eq 2 ] && grep -q -- '--db needs --hdf5' "$out/log" || { cat "$out/log"; fail "--db alone"; }
rc=0; "$stack" --hdf5 -b 2 -l "v{volume}.tif" fakesrc >"$out/log" 2>&1 || rc=$?
[ $rc -eq 2 ] && grep -q 'must end in .h5' "$out/log" || { cat "$out/log"; fail ".tif for --hdf5"; }
# shellcheck disable=SC2086
expect_fail "--db needs the depth-domain complex data of aooctfft" \
  "$stack" --hdf5 --db -b 2 -l "$out/dbbad/x{volume}.h5" $small
# an incomplete last volume as TIFF: the same rule, no file (issue 41)
mkdir "$out/short-tif"
# shellcheck disable=SC2086
expect_fail "last volume is incomplete: 1 of 3.*volume file is not kept" \
  "$stack" --tiff -b 3 -l "$out/short-tif/v{volume}.tif" $small
[ "$(cd "$out/short-tif" && ls -A | tr '\n' ' ')" = "depth-scale.txt v000.tif " ] ||
  { ls -a "$out/short-tif"; fail "incomplete TIFF volume kept"; }
grep -q '^aooct-stack: 3 images, 1 whole volume(s) of 3 B-scans$' "$out/log" ||
  { cat "$out/log"; fail "the summary counts what was not kept"; }
# --compress out of range with --hdf5 says the range, not "needs --hdf5"
rc=0; "$stack" --hdf5 --compress=10 -b 2 fakesrc >"$out/log" 2>&1 || rc=$?
[ $rc -eq 2 ] && grep -q -- '--compress=10: the deflate level must be 0..9' "$out/log" ||
  { cat "$out/log"; fail "--hdf5 --compress=10"; }
# a write error after whole volumes: the summary counts the files kept, not
# the volume given up (the second volume's file cannot take its name: a
# folder with a file in it is in the way)
for kind in hdf5:h5 tiff:tif; do
  k=${kind%%:*} x=${kind#*:}
  mkdir -p "$out/count-$k/v001.$x/x"
  # shellcheck disable=SC2086
  expect_fail "cannot .*/count-$k/v001.$x" \
    "$stack" --overwrite --$k -b 2 -l "$out/count-$k/v{volume}.$x" $small
  grep -q '^aooct-stack: 2 images, 1 whole volume(s) of 2 B-scans$' "$out/log" && [ -f "$out/count-$k/v000.$x" ] ||
    { cat "$out/log"; ls -a "$out/count-$k"; fail "--$k: summary after a write error"; }
done
echo "hdf5: unwritable folder, full disk (HDF5 and TIFF), --memory-limit, incomplete volume (HDF5 and TIFF): refused, nothing half-written, counted right"

# --- files there from before: never replaced without --overwrite (issue 41) ---
# every kind of file aooct-stack writes: HDF5 and TIFF volumes, the
# depth scale; the first file before anything runs (exit 2), a later one
# when its turn comes (exit 1, the earlier volumes written, the old file
# as it was)
for kind in hdf5:h5 tiff:tif; do
  k=${kind%%:*} x=${kind#*:}
  mkdir "$out/again-$k"
  # shellcheck disable=SC2086
  "$stack" --$k -b 2 -l "$out/again-$k/v{volume}.$x" $small >"$out/log" 2>&1 || { cat "$out/log"; fail "--$k"; }
  cp "$out/again-$k/v001.$x" "$out/keep"
  rc=0
  # shellcheck disable=SC2086
  "$stack" --$k -b 2 -l "$out/again-$k/v{volume}.$x" $small >"$out/log" 2>&1 || rc=$?
  [ $rc -eq 2 ] && grep -q "v000.$x exists .*--overwrite" "$out/log" ||
    { cat "$out/log"; fail "--$k over an earlier run: rc $rc"; }
  rm "$out/again-$k/v000.$x" "$out/again-$k/depth-scale.txt"
  rc=0
  # shellcheck disable=SC2086
  "$stack" --$k -b 2 -l "$out/again-$k/v{volume}.$x" $small >"$out/log" 2>&1 || rc=$?
  [ $rc -eq 1 ] && grep -q "v001.$x exists" "$out/log" && [ -f "$out/again-$k/v000.$x" ] &&
    cmp -s "$out/keep" "$out/again-$k/v001.$x" && ! ls -A "$out/again-$k" | grep -q partial ||
    { cat "$out/log"; ls -A "$out/again-$k"; fail "--$k: a later volume there from before"; }
  # shellcheck disable=SC2086
  "$stack" --overwrite --$k -b 2 -l "$out/again-$k/v{volume}.$x" $small >"$out/log" 2>&1 ||
    { cat "$out/log"; fail "--$k --overwrite"; }
done
mkdir "$out/again-ds"
cp "$out/keep" "$out/again-ds/depth-scale.txt"
rc=0
# shellcheck disable=SC2086
"$stack" --hdf5 -b 2 -l "$out/again-ds/v{volume}.h5" $small >"$out/log" 2>&1 || rc=$?
[ $rc -eq 2 ] && grep -q "depth-scale.txt exists" "$out/log" && cmp -s "$out/keep" "$out/again-ds/depth-scale.txt" ||
  { cat "$out/log"; fail "a depth-scale.txt there from before replaced"; }
echo "hdf5: volumes and the depth scale there from before are refused (first and later files), --overwrite replaces them"

# --- what the values are, and the calibration's absolute path ---------------
h5dump -a /volume/units "$out/db/v000.h5" | grep -q '(0): "dB"' || fail "--db: no units = dB attribute"
h5dump -a /volume/values "$out/db/v000.h5" | grep -q 'intensity in dB before normalisation' || fail "--db: values"
h5dump -a /volume/units "$out/h5/v000.h5" | grep -q '(0): "grey level"' || fail "grey: units"
mkdir "$out/rel"
# shellcheck disable=SC2086
(cd "$out" && "$stack" --hdf5 -b 2 -l "rel/v{volume}.h5" aooctsrc num-buffers=2 alines=$M seed=7 \
  ! aooctdcsub ! aooctpad size=2048 ! aooctkmap wavelength-file=cal.txt ! aooctfft ! aooctnorm \
  ! video/x-raw,format=GRAY16_LE) >"$out/log" 2>&1 || { cat "$out/log"; fail "relative calibration"; }
h5dump -a /volume/wavelength_file "$out/rel/v000.h5" | grep -q "(0): \"$out/cal.txt\"" ||
  { h5dump -a /volume/wavelength_file "$out/rel/v000.h5"; fail "the calibration's path is not absolute"; }
echo "hdf5: units (dB, grey level) and values attributes; the calibration's path stored absolute"

# --- h5py (and tifffile) from PyPI ---------------------------------------------
venv=$build/tests/h5py-venv
if ! "$venv/bin/python" -c 'import h5py, tifffile' 2>/dev/null; then
  rm -rf "$venv"
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q h5py tifffile; } >"$out/pip" 2>&1; then
    cat "$out/pip"
    rm -rf "$venv"
    echo "h5py cannot be installed from PyPI here: the h5py part is skipped"
    exit 77
  fi
fi
version=$(sed -n "s/^ *version : '\(.*\)',$/\1/p" "$root/meson.build" | head -1)
"$venv/bin/python" - "$out" "$cal" "$B" "$M" "$version" <<'EOF'
import sys
import h5py
import numpy as np
import tifffile

out, cal, B, M, version = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]

def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)

# the depth scale from the calibration: lambda0 lambda1 (N - 1) / (2 P1 |lambda1 - lambda0|)
lam = [float(x) for x in open(cal) if x.strip() and not x.startswith("#")]
um = lam[0] * lam[-1] * (len(lam) - 1) / (2 * 2048 * abs(lam[-1] - lam[0])) / 1000
scale = dict(l.strip().split("=") for l in open(out + "/h5/depth-scale.txt") if "=" in l)
for v in (0, 1):
    with h5py.File(f"{out}/h5/v00{v}.h5", "r") as f:
        d = f["volume"]
        check(d.shape == (B, 1014, M) and d.dtype == np.uint16, f"shape {d.shape} {d.dtype}")
        check(d.chunks == (1, 1014, M) and d.compression == "gzip" and d.shuffle, "chunks/filters")
        png = np.fromfile(f"{out}/png{v}.be", dtype=">u2").reshape(B, 1014, M)
        check(np.array_equal(d[()], png), "h5py's pixels differ from the PNGs'")
        a = d.attrs
        want = {"raw_samples": 832, "pad_size": 2048, "samples": 4096, "pad_factor": 2, "alines": M,
                "crop_start": 10, "crop_end": 1024, "full_range": 0, "a2": 8.0, "a3": -2.0,
                "window": b"hann", "interpolation": b"linear", "wavelength_file": cal.encode(),
                "log": 1, "dynamic_range": 50.0, "plugin_version": version.encode()}
        for k, w in want.items():
            check(k in a and a[k] == w, f"attribute {k} = {a.get(k)!r}, expected {w!r}")
        # depth scale = aooctnorm's depth-per-row (its message, %.9g) and the calibration's
        check(abs(a["depth_um_per_pixel"] - float(scale["um-per-row"])) < 1e-8 * um, "depth scale vs aooctnorm")
        check(abs(a["depth_um_per_pixel"] - um) < 1e-9 * um, f"depth scale {a['depth_um_per_pixel']} vs {um}")
        check(abs(a["first_row_um"] - 10 * a["depth_um_per_pixel"]) < 1e-9, "first_row_um")
        check(f["wavelength_file_contents"][()] == open(cal, "rb").read(), "calibration contents")
        check(list(f["pts_ns"][()]) == [(v * B + b) * 10_000_000 for b in range(B)], "pts_ns")
print("hdf5: h5py reads both volumes: pixels = the PNG stack's, attributes right, "
      f"depth {um:.6f} um/pixel = aooctnorm's depth-per-row")

# --db against float64: L = 10 log10(max(re^2 + im^2, 1e-30)) of bins 10..599
z = np.fromfile(f"{out}/complex.raw", dtype="<f4").astype(np.float64).reshape(2 * B, M, 4096, 2)
ref = 10 * np.log10(np.maximum(z[..., 0] ** 2 + z[..., 1] ** 2, 1e-30))[:, :, 10:600].transpose(0, 2, 1)
for v in (0, 1):
    with h5py.File(f"{out}/db/v00{v}.h5", "r") as f:
        d = f["volume"]
        check(d.shape == (B, 590, M) and d.dtype == np.float32, f"dB shape {d.shape} {d.dtype}")
        got = d[()].astype(np.float64)
        want = ref[v * B:(v + 1) * B]
        # rounded once to float32: within half a float32 step of the float64 value
        err = np.abs(got - want) / np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
        check(err.max() <= 0.5, f"dB differs by {err.max():.3f} float32 steps")
        check(d.attrs["crop_start"] == 10 and d.attrs["crop_end"] == 600, "dB crop")
        check(abs(d.attrs["depth_um_per_pixel"] - um) < 1e-9 * um, "dB depth scale")
print(f"hdf5: --db = float64 intensity in dB within half a float32 step ({want.min():.1f}..{want.max():.1f} dB)")

# the TIFF's ImageJ tags: y in micrometres per row, x and z unknown (pixels)
with tifffile.TiffFile(f"{out}/tif/v000.tif") as t:
    ij = t.imagej_metadata
    check(ij is not None and ij["images"] == B and ij["slices"] == B, f"ImageJ metadata {ij}")
    check(ij["unit"] == "pixel" and ij["yunit"] == "micron", f"ImageJ units {ij}")
    # the chain's settings as in the HDF5 attributes
    for k, w in {"a2": 8, "a3": -2, "window": "hann", "pad_size": 2048, "crop_start": 10,
                 "wavelength_file": cal, "plugin_version": version}.items():
        check(ij.get("aooct_" + k) == w, f"ImageJ aooct_{k} = {ij.get('aooct_' + k)!r}, expected {w!r}")
    check(abs(ij["aooct_depth_um_per_pixel"] - um) < 1e-9 * um, "ImageJ aooct_depth_um_per_pixel")
    p = t.pages[0].tags
    num, den = p["YResolution"].value
    check(abs(den / num - um) < 1e-6 * um, f"YResolution {num}/{den}: {den / num} um per row, expected {um}")
    check(p["XResolution"].value[0] == p["XResolution"].value[1], "XResolution 1")
    check(t.asarray().shape == (B, 1014, M), "TIFF shape")
print("hdf5: the TIFF's ImageJ tags give the depth scale (yunit=micron, YResolution) and the settings")
EOF
