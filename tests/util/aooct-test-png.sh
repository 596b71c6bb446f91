# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the pipeline tests (sourced): what they check in the PNGs the
# use-case scripts write.

# expect_png_size FILE WxH: the PNG's width and height (bytes 16..23 of the
# header, big-endian) are WxH, else says so and exits 1.
expect_png_size() {
  local size
  size=$(od -An -tu1 -j16 -N8 "$1" | awk '{print $3*256+$4 "x" $7*256+$8}')
  [ "$size" = "$2" ] || { echo "$1: PNG is $size, expected $2"; exit 1; }
}

# png_to_gray8 PNG RAW: the image as GRAY8 rows (each padded to 4 bytes,
# as GStreamer lays them out), for png_means.
png_to_gray8() {
  gst-launch-1.0 -q filesrc location="$1" ! pngdec ! videoconvert \
    ! video/x-raw,format=GRAY8 ! filesink location="$2"
}

# png_means RAW WIDTH HEIGHT "NAME R0 R1 C0 C1" ...: prints "NAME MEAN" for
# each region (rows R0..R1-1, columns C0..C1-1) of a png_to_gray8 file.
png_means() {
  python3 - "$@" <<'PY'
import sys
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = open(path, "rb").read()
stride = (w + 3) // 4 * 4
assert len(d) == stride * h, (len(d), stride * h)
for spec in sys.argv[4:]:
    name, r0, r1, c0, c1 = spec.split()
    r0, r1, c0, c1 = int(r0), int(r1), int(c0), int(c1)
    s = sum(sum(d[r * stride + c0:r * stride + c1]) for r in range(r0, r1))
    print(name, s / ((r1 - r0) * (c1 - c0)))
PY
}
