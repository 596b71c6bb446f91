#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/aooct-background: the mean raw spectrum of N frames, checked against
# the mean computed here with od and awk from the raw file itself (every
# one of the N values, to the 9 digits written); fewer frames in the stream
# than asked averages those, with a note; the file is what aooctdcsub
# mode=background reads; a GRAY8 source with padded rows (width 255) too;
# usage and source errors are errors; a SOURCE with line breaks still gives
# a file aooctdcsub reads; write errors name the file asked for.
set -euo pipefail
tool=${AOOCT_BUILD:?}/tools/aooct-background
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT

check_mean() {   # RAW BYTES-PER-VALUE WIDTH VALUES-READ FILE [ROW-STRIDE-IN-VALUES]
  local fmt=u2; [ "$2" -eq 1 ] && fmt=u1
  od -An -v -t$fmt -w$2 "$1" |
    awk -v w="$3" -v max="$4" -v st="${6:-$3}" 'NR <= max && (NR - 1) % st < w {
        s[(NR - 1) % st] += $1; n++ }
      END { for (i = 0; i < w; i++) printf "%.17g\n", s[i] / (n / w) }' >"$out/expected"
  grep -v '^#' "$5" >"$out/got"
  [ "$(wc -l <"$out/got")" -eq "$3" ] || { echo "$5: $(wc -l <"$out/got") values, expected $3"; exit 1; }
  paste "$out/got" "$out/expected" | awk '{ d = $1 - $2; if (d < 0) d = -d;
      if (d > 1e-8 * ($2 < 1 ? 1 : $2)) { print "value " NR ": " $1 ", expected " $2; bad = 1 } }
      END { exit bad }'
}

# 6 frames of 256 x 50 GRAY16_LE from the synthetic camera (a mirror)
gst-launch-1.0 -q aooctsrc num-buffers=6 samples=256 alines=50 phantom=mirror seed=7 \
  wavelength-coeffs="785,0.43" \
  ! filesink location="$out/bg.raw"
src="filesrc location=$out/bg.raw ! rawvideoparse format=gray16-le width=256 height=50"

# the first 4 frames
"$tool" --frames=4 --output="$out/bg.txt" $src >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
grep -q 'mean of 200 A-lines in 4 frames, 256 samples' "$out/log" || { cat "$out/log"; exit 1; }
check_mean "$out/bg.raw" 2 256 $((4 * 50 * 256)) "$out/bg.txt"
grep -q '^# aooct background spectrum: mean of 200 A-lines (4 frames, GRAY16_LE)' "$out/bg.txt"

# more frames asked than the file has: all 6, with a note
"$tool" -n 10 -o "$out/all.txt" $src >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
grep -q 'ended after 6 of 10 frames' "$out/log" || { cat "$out/log"; exit 1; }
check_mean "$out/bg.raw" 2 256 $((6 * 50 * 256)) "$out/all.txt"

# aooctdcsub takes it
gst-launch-1.0 -q $src ! aooctdcsub mode=background background-file="$out/bg.txt" \
  ! fakesink >"$out/log" 2>&1 || { cat "$out/log"; echo "aooctdcsub rejected the file"; exit 1; }

# GRAY8, width 255: rows padded to 256 bytes (GStreamer's GRAY8 stride,
# which rawvideoparse expects in the file too); the padding must not count
head -c $((3 * 256 * 40)) /dev/urandom >"$out/g8.raw"
"$tool" -n 3 -o "$out/g8.txt" filesrc location="$out/g8.raw" \
  ! rawvideoparse format=gray8 width=255 height=40 >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
check_mean "$out/g8.raw" 1 255 $((3 * 256 * 40)) "$out/g8.txt" 256

# packed samples (docs/caps.md), bytes packed by hand: two frames of two
# A-lines of 4 samples, Mono12p 0xABC 0x123 0x000 0xFFF / 0x001 0x800
# 0x7FF 0x010 and Mono10p 1023 1 682 341 / 512 255 1022 0
p12='\xbc\x3a\x12\x00\xf0\xff\x01\x00\x80\xff\x07\x01'
p10='\xff\x07\xa0\x6a\x55\x00\xfe\xe3\x3f\x00'
printf "$p12$p12" >"$out/p12.raw"
printf "$p10$p10" >"$out/p10.raw"
for f in mono12p:p12:'1374.5 1169.5 1023.5 2055.5' mono10p:p10:'767.5 128 852 170.5'; do
  IFS=: read -r fmt file want <<<"$f"
  "$tool" -n 2 -o "$out/$file.txt" aooctfilesrc location="$out/$file.raw" format=$fmt \
    width=4 height=2 >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
  got=$(grep -v '^#' "$out/$file.txt" | tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$want" ] || { echo "$fmt: mean $got, expected $want"; exit 1; }
  grep -q "^# aooct background spectrum: mean of 4 A-lines (2 frames, $fmt)" "$out/$file.txt" ||
    { head -3 "$out/$file.txt"; exit 1; }
done

# errors: no output, a bad source, an empty file
if "$tool" $src >/dev/null 2>&1; then echo "no --output accepted"; exit 1; fi
if "$tool" -o "$out/x.txt" nosuchelement >"$out/log" 2>&1; then echo "bad source accepted"; exit 1; fi
grep -q 'SOURCE' "$out/log" || { cat "$out/log"; exit 1; }
: >"$out/empty.raw"
if "$tool" -o "$out/x.txt" filesrc location="$out/empty.raw" ! rawvideoparse format=gray16-le \
  width=256 height=50 >"$out/log" 2>&1; then echo "empty stream accepted"; exit 1; fi
grep -qi 'no.*frames' "$out/log" || { cat "$out/log"; exit 1; }
[ ! -e "$out/x.txt" ] || { echo "file written after an error"; exit 1; }

# What it writes aooctdcsub reads, whatever SOURCE holds (issue 33, item
# 11): line breaks of every kind in the description (gst_parse takes them
# as spaces; the header must not end its comment there), non-ASCII
nl=$'\n'; cr=$'\r'
cp "$out/bg.raw" "$out/bü.raw"
# (each argument one token, as gst-launch-1.0 takes them: line breaks
# between the words of an argument, no spaces)
for brk in "$nl" "$cr" "$cr$nl" "$nl$nl$cr$cr$nl"; do
  rm -f "$out/nl.txt"
  "$tool" -n 2 -o "$out/nl.txt" filesrc "location=\"$out/bü.raw\"" \
    ! "rawvideoparse${brk}format=gray16-le" "width=256${brk}height=50" \
    >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
  gst-launch-1.0 -q $src ! aooctdcsub mode=background background-file="$out/nl.txt" \
    ! fakesink >"$out/log" 2>&1 || { cat "$out/log"; echo "aooctdcsub rejected the file"; exit 1; }
  check_mean "$out/bg.raw" 2 256 $((2 * 50 * 256)) "$out/nl.txt"
done

# SOURCE's arguments are gst-launch-1.0's tokens (issue 41): a path with a
# space, given as one argument, stays one path
mkdir "$out/with space"
cp "$out/bg.raw" "$out/with space/b g.raw"
"$tool" -n 2 -o "$out/with space/b g.txt" filesrc location="$out/with space/b g.raw" \
  ! rawvideoparse format=gray16-le width=256 height=50 >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
check_mean "$out/bg.raw" 2 256 $((2 * 50 * 256)) "$out/with space/b g.txt"

# write errors name the file asked for, never a temporary file, and leave
# nothing behind; messages in the user's character set (setlocale: GLib's
# quotes, not '?')
mkdir "$out/w"
for o in "$out/w/no/bg.txt" "$out/w"; do
  rc=0; LC_ALL=C.UTF-8 "$tool" -n 1 -o "$o" $src >"$out/log" 2>&1 || rc=$?
  [ $rc -eq 1 ] && grep -q "cannot write $o: " "$out/log" && ! grep -Eq 'bg\.txt\.|w\.[A-Za-z0-9]{6}' "$out/log" ||
    { cat "$out/log"; echo "-o $o: rc $rc"; exit 1; }
done
[ -z "$(ls "$out/w")" ] || { ls "$out/w"; echo "a temporary file was left"; exit 1; }
for n in 0 -1 3x; do
  rc=0; LC_ALL=C.UTF-8 "$tool" -n "$n" -o "$out/x.txt" $src >"$out/log" 2>&1 || rc=$?
  [ $rc -eq 2 ] && grep -q -- "$n" "$out/log" && ! grep -q '?' "$out/log" ||
    { cat "$out/log"; echo "--frames $n: rc $rc"; exit 1; }
done
echo "aooct-background: means exact, short stream, GRAY8 strides, packed samples, aooctdcsub reads the file, errors"
