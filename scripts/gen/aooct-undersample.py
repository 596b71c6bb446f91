#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Keeps only the measured pixels of a raw GRAY16_LE file (spec section 0:
# A-lines of N samples, one after another): for each A-line the U pixels
# listed in MASK (aooctcs mask-file format: one index per line, '#'
# comments), in mask order.  The output is what a camera that reads out
# only those pixels would record, for
#   aooctfilesrc location=OUT.raw format=gray16-le width=U height=M
#   ! aooctdcsub ! aooctcs mask-file=MASK camera-pixels=N ...
# (rows of U samples, no padding: rawvideoparse would expect 4-byte rows
# where U is odd)
#
#   scripts/gen/aooct-undersample.py IN.raw N MASK OUT.raw
import sys
from array import array


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: aooct-undersample.py IN.raw N MASK OUT.raw")
    src, n, mask_path, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    mask = []
    with open(mask_path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            p = int(line)
            if not 0 <= p < n or (mask and p <= mask[-1]):
                sys.exit(f"{mask_path}:{lineno}: index {p} out of range 0..{n - 1} or not increasing")
            mask.append(p)
    data = array("H")
    with open(src, "rb") as f:
        data.frombytes(f.read())
    if sys.byteorder != "little":
        data.byteswap()
    if len(data) % n:
        sys.exit(f"{src}: {len(data)} samples is not a whole number of {n}-sample A-lines")
    out = array("H")
    for a in range(len(data) // n):
        row = data[a * n:(a + 1) * n]
        out.extend(row[p] for p in mask)
    if sys.byteorder != "little":
        out.byteswap()
    with open(dst, "wb") as f:
        out.tofile(f)
    print(f"{len(data) // n} A-lines: {n} -> {len(mask)} pixels")


main()
