#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# aooct-view in a real window under Xvfb, driven by its --script hook,
# which goes through the program's own controls and buttons:
#  - it starts on the synthetic camera and shows B-scans (the window's
#    pixels over the video area are checked: the screenshot step fails on a
#    blank or uniform picture);
#  - a2/a3 changed through the dispersion controls while playing: the
#    B-scan shown afterwards is byte for byte the one gst-launch-1.0 makes
#    with aooctdisp a2/a3 set, for the same seed and B-scan number, and the
#    one before the change is the one without (the launch line is the one
#    the program printed into its saved settings);
#  - settings save / load / save round-trips, and a loaded file reaches
#    the running elements;
#  - a recording of the processed stream (Matroska) and of the raw frames
#    decodes to whole B-scans / frames;
#  - the controls are those of the installed elements' properties (enum
#    choices from their GEnumClass, none for a missing property);
#  - where aooctenface / aooctrender are installed, their views show
#    images (pixel check on each tab);
#  - with --sink gtkglsink too (where the GL plugin is installed);
#  - where root may make a private network namespace and Aravis's fake
#    GigE Vision camera is installed: --camera opens it through aravissrc
#    and shows its frames (as tests/pipelines/test-camera.sh, loopback only);
#  - a raw file of packed 12-bit samples (--format mono12p) plays;
#  - bad input (a raw file smaller than a frame, a FIFO or a
#    directory as the raw file, a width that is not a number, no
#    calibration, a calibration of the wrong length, a packed format whose
#    rows the width or the file size do not fit, and a property value
#    the element refuses at start) is named on the status line and the
#    program goes on to play afterwards; a raw file and recordings named
#    with spaces, quotes and non-ASCII work;
#  - --width/--height 0, negative, too large or not a number, and an
#    unknown --format, are refused (exit 2).
# Usage: test-viewer.sh PATH/TO/aooct-view   (exit 77 without Xvfb or gtksink)
set -euo pipefail
view=$(realpath "$1")
command -v xvfb-run >/dev/null || { echo "xvfb-run missing (Debian: xvfb): skipped"; exit 77; }
command -v xauth >/dev/null || { echo "xauth missing: skipped"; exit 77; }
gst-inspect-1.0 gtksink >/dev/null 2>&1 || { echo "gtksink missing (Debian: gstreamer1.0-gtk3): skipped"; exit 77; }
out=$(mktemp -d)
[ -n "${AOOCT_TEST_KEEP:-}" ] || trap 'rm -rf "$out"' EXIT
cd "$out"

# CPU on every machine: the comparison below is byte for byte
chain="[aooctdcsub]
backend=cpu
[aooctpad]
backend=cpu
[aooctkmap]
backend=cpu
wavelength-coeffs=785,0.125,1e-05,-2e-09
[aooctfft]
backend=cpu"
printf '[source]\nkind=synthetic\n[aooctsrc]\nis-live=true\nseed=7\n%s\n[aooctdisp]\nbackend=cpu\n[aooctnorm]\nbackend=cpu\ndynamic-range=50\n' \
  "$chain" > start.ini
printf '[source]\nkind=synthetic\n[aooctsrc]\nis-live=true\nseed=7\n%s\n[aooctdisp]\nbackend=cpu\na2=3\na3=1\n[aooctnorm]\nbackend=cpu\ndynamic-range=40\n' \
  "$chain" > other.ini
# a small raw file: 3 frames of 64 samples x 32 A-lines, 16 bit
head -c $((3 * 64 * 32 * 2)) /dev/urandom > good.raw
# less than one frame (bytes left after whole frames are only a warning of
# aooctfilesrc's: a trailer)
head -c 100 /dev/zero > bad.raw
for i in $(seq 0 63); do echo "$((800 + i)).5"; done > cal64.txt
head -n 50 cal64.txt > cal50.txt
# not regular files, and a file name with spaces, quotes and non-ASCII
mkfifo fifo.raw; mkdir dir.raw; cp good.raw "Müller scan \"q\".raw"
# a file name with a line break, a '#' and a '[' (the saved settings carry
# it in a value and in the launch-line comment: both must load again)
printf '[source]\nkind=synthetic\nlocation=%s/a\\nb # [c].raw\n[aooctsrc]\nis-live=true\nseed=7\n%s\n' \
  "$out" "$chain" > newline.ini
# a width that is not wholly a number (it was read as 64)
printf '[source]\nkind=file\nlocation=%s/good.raw\nwidth=64x\nheight=32\n%s\n' "$out" \
  "$chain" > badwidth.ini

# Controls come from the installed elements' properties: what this build
# of the plugin has (gst-inspect-1.0) is what the window must offer --
# enum choices in the GEnumClass's order, no control for a property the
# element lacks, the en-face / volume views only where their element is.
# (whole output first: grep -q closing the pipe early fails it under pipefail)
has_prop() { local t; t=$(gst-inspect-1.0 "$1" 2>/dev/null) || return 1; grep -qE "^  $2 *:" <<<"$t"; }
nicks() {
  gst-inspect-1.0 "$1" | sed -n "/^  $2 /,/^  [a-z]/p" \
    | sed -n 's/^ *([0-9]*): \([a-z0-9-]*\) .*/\1/p' | paste -sd, -
}
yn() { if "$@" >/dev/null 2>&1; then echo yes; else echo no; fi; }
{
  echo "expect-choices aooctfft window $(nicks aooctfft window)"
  echo "expect-choices aooctkmap interpolation $(nicks aooctkmap interpolation)"
  echo "expect-choices chain backend $(nicks aooctdcsub backend)"
  for p in aooctdisp:estimate aooctfft:window-parameter aooctnorm:average-bscans \
      aooctnorm:average-alines aooctnorm:bilateral-sigma-space aooctnorm:dynamic-range; do
    echo "expect-control ${p%%:*} ${p#*:} $(yn has_prop "${p%%:*}" "${p#*:}")"
  done
  echo "expect-control aooctnorm no-such-property no"
  echo "expect-view enface $(yn gst-inspect-1.0 aooctenface)"
  echo "expect-view volume $(yn gst-inspect-1.0 aooctrender)"
} > controls.txt
grep -q 'window none,hann' controls.txt || { echo "FAIL: gst-inspect-1.0 parsing"; cat controls.txt; exit 1; }

cat controls.txt - > script.txt <<END_OF_SCRIPT
wait-frames 3
dump-frame before.pgm
set aooctdisp a2 8
set aooctdisp a3 -2
wait-frames 4
dump-frame after.pgm
expect-property aooctdisp a2 8
expect-property aooctdisp a3 -2
expect-stats A-lines/s
expect-stats CPU
screenshot shot.png
save saved.ini
set record location '$out/Aufnahme ü "1".mkv'
set record raw-location '$out/roh ü.raw'
click record
wait-frames 5
click record
load other.ini
expect-property aooctdisp a2 3
expect-property aooctnorm dynamic-range 40
expect-running
load saved.ini
save saved2.ini
expect-property aooctdisp a2 8
set aooctpad size 1000
expect-status must be a power of two
set aooctpad size 0
expect-running
set source kind file
set source width 64
set source height 32
set source location $out/bad.raw
set aooctkmap wavelength-file $out/cal64.txt
click open
expect-status is less than one frame
set source location $out/good.raw
set aooctkmap wavelength-file ""
click open
expect-status no spectrometer calibration
set aooctkmap wavelength-file $out/cal50.txt
click open
expect-status has 50 wavelengths but the frame width is 64
set aooctkmap wavelength-file $out/cal64.txt
set source location $out/fifo.raw
click open
expect-status raw file $out/fifo.raw: not a regular file (it is a FIFO
set source location $out/dir.raw
click open
expect-status raw file $out/dir.raw: not a regular file (it is a directory
set source location '$out/Müller scan "q".raw'
click open
expect-running
set source location $out/good.raw
set source format mono12p
click open
expect-running
set source format mono10p
set source height 200
click open
expect-status 80 bytes (64 samples in mono10p)
set source height 32
set source format mono12p
set source width 63
click open
expect-status multiple of 2
set source width 64
set source format gray16-le
set source location $out/good.raw
set aooctkmap wavelength-file $out/cal50.txt
save final.ini
set aooctkmap wavelength-file $out/cal64.txt
click open
expect-running
save final.ini
screenshot file.png
load $out/newline.ini
save $out/newline2.ini
load $out/newline2.ini
save $out/newline3.ini
load $out/badwidth.ini
expect-status frame geometry width=64x
quit
END_OF_SCRIPT

# run_view NAME SCRIPT [OPTIONS]: aooct-view in a fresh X server, its
# output in NAME.log; the test fails when the program does
run_view() {
  local name=$1 script=$2 rc=0
  shift 2
  timeout 150 xvfb-run -a -s "-screen 0 1280x800x24 +extension GLX" "$view" "$@" \
    --script "$script" > "$name.log" 2>&1 || rc=$?
  cat "$name.log"
  [ $rc -eq 0 ] || { echo "FAIL: aooct-view $* --script $script exited $rc"; exit 1; }
}
run_view main script.txt --sink gtksink --settings start.ini

# --- numeric options: 0, negative, too large, not a number: refused -----
for o in "--width 0" "--width -5" "--width 70000" "--height 0" "--height -1" \
  "--width abc" "--format gray12" "--format mono14p"; do
  rc=0
  # shellcheck disable=SC2086
  timeout 60 xvfb-run -a "$view" $o > opt.log 2>&1 || rc=$?
  [ $rc -eq 2 ] && grep -q -- "${o%% *}" opt.log || { cat opt.log; echo "FAIL: $o: exit $rc"; exit 1; }
done
echo "options: 0, negative, too large and non-numeric values refused"

# --- a2/a3 through the controls == aooctdisp a2/a3 in gst-launch-1.0 ----
frame_of() { sed -n "s|^aooct-view script: frame \([0-9]*\) to $1\$|\1|p" main.log; }
nb=$(frame_of before.pgm); na=$(frame_of after.pgm)
[ -n "$nb" ] && [ -n "$na" ] || { echo "FAIL: no frame numbers"; exit 1; }
line=$(sed -n '2s/^# //p' saved.ini)
case $line in
  "gst-launch-1.0 aooctsrc"*"aooctdisp"*"a2=8 a3=-2"*"! videoconvert ! autovideosink") ;;
  *) echo "FAIL: unexpected launch line: $line"; exit 1 ;;
esac
reference() {   # $1: launch line, $2: B-scan number, $3: file
  local l=${1% ! videoconvert ! autovideosink}
  l=${l/gst-launch-1.0 aooctsrc/gst-launch-1.0 -q aooctsrc num-buffers=$(($2 + 1))}
  rm -rf ref; mkdir ref
  eval "$l ! multifilesink location=ref/%05d"
  cp "ref/$(printf %05d "$2")" "$3"
}
reference "$line" "$na" ref-after
reference "${line/a2=8 a3=-2/a2=0 a3=0}" "$nb" ref-before
size=$((240 * 1024))
tail -c $size after.pgm > got-after; tail -c $size before.pgm > got-before
cmp got-after ref-after || { echo "FAIL: B-scan $na after the a2/a3 change differs from aooctdisp a2=8 a3=-2"; exit 1; }
cmp got-before ref-before || { echo "FAIL: B-scan $nb before the change differs from aooctdisp a2=0 a3=0"; exit 1; }
if cmp -s got-before got-after; then echo "FAIL: the change changed nothing"; exit 1; fi
echo "a2/a3 through the controls: B-scan $na == gst-launch-1.0 ... aooctdisp a2=8 a3=-2 (and B-scan $nb == a2=0 a3=0)"

# --- statistics: 240 A-lines per B-scan of the synthetic camera ---------
# (counted at the chain's input and output over about a second: they may
# differ by the B-scan in flight, 240 A-lines, and a little timing)
stats=$(sed -n 's/^aooct-view script: stats: //p' main.log | head -1)
awk -v s="$stats" 'BEGIN { split(s, f, " +"); a = f[1]; b = f[3];
  exit !(a > 0 && b > 0 && a > 240 * b - 360 && a < 240 * b + 360) }' ||
  { echo "FAIL: statistics '$stats' are not 240 A-lines per B-scan"; exit 1; }
echo "statistics: $stats"

# --- settings round trip -------------------------------------------------
cmp saved.ini saved2.ini || { echo "FAIL: settings do not round-trip"; diff saved.ini saved2.ini; exit 1; }
# what the viewer writes it reads back, whatever a value holds (issue 33,
# item 11's class): a line break in a file name
cmp newline2.ini newline3.ini || { echo "FAIL: a line break in a value does not round-trip"; diff newline2.ini newline3.ini; exit 1; }
grep -qF "location=$out/a\nb # [c].raw" newline3.ini || { cat newline3.ini; echo "FAIL: the file name changed"; exit 1; }
grep -q '^a2=8$' saved.ini && grep -q '^seed=7$' saved.ini
echo "settings: save, load, save round-trips"

# --- screenshots ---------------------------------------------------------
for f in shot.png file.png; do
  [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "FAIL: $f is not a PNG"; exit 1; }
done
echo "screenshots: written, video area not blank"

# --- recordings ----------------------------------------------------------
# the recordings under the names given (spaces, quotes, non-ASCII)
mv "Aufnahme ü \"1\".mkv" rec.mkv; mv "roh ü.raw" rec.raw
gst-launch-1.0 -q filesrc location=rec.mkv ! matroskademux \
  ! video/x-raw,format=GRAY8,width=240,height=1024 ! filesink location=rec.dec
bytes=$(stat -c %s rec.dec)
n=$((bytes / size))
[ "$n" -ge 3 ] && [ $((bytes % size)) -eq 0 ] || { echo "FAIL: rec.mkv has no whole B-scans ($bytes bytes)"; exit 1; }
raw=$((832 * 240 * 2)); rbytes=$(stat -c %s rec.raw)
[ "$rbytes" -ge $raw ] && [ $((rbytes % raw)) -eq 0 ] || { echo "FAIL: rec.raw is not whole frames ($rbytes bytes)"; exit 1; }
echo "recording: $n B-scans in rec.mkv, $((rbytes / raw)) raw frames in rec.raw"

# --- bad input: named on the status line, the program went on -----------
grep -q 'status: .*is less than one frame' main.log
grep -q 'status: raw file .*fifo.raw: not a regular file (it is a FIFO' main.log
grep -q 'status: frame geometry width=64x' main.log
grep -q 'status: no spectrometer calibration' main.log
grep -q 'status: .*has 50 wavelengths but the frame width is 64' main.log
grep -q 'status: aooctpad.*size=1000 must be a power of two' main.log
# the raw file through aooctfilesrc where this aooct has it
if gst-inspect-1.0 aooctfilesrc >/dev/null 2>&1; then src=aooctfilesrc; else src=filesrc; fi
grep -q "^# gst-launch-1.0 $src location=$out/good.raw" final.ini ||
  { echo "FAIL: the raw file is not read by $src:"; sed -n 2p final.ini; exit 1; }
echo "bad input: each named on the status line; a good file played afterwards"

# --- the en-face and volume views, where aooctenface / aooctrender exist
views=
for v in enface:aooctenface volume:aooctrender; do
  gst-inspect-1.0 "${v#*:}" >/dev/null 2>&1 && views="$views ${v%%:*}"
done
if [ -n "$views" ]; then
  {
    for v in $views; do
      f=$([ "$v" = enface ] && echo aooctenface || echo aooctrender)
      echo "set $f bscans-per-volume 10"
    done
    echo "wait-frames 25"
    for v in $views; do echo "show $v"; echo "wait-ms 500"; echo "screenshot view-$v.png"; done
    # switched off, the chain runs without them (and faster)
    echo "set views enabled false"
    for v in $views; do echo "expect-view $v no"; done
    echo "expect-running"
    echo quit
  } > views.txt
  run_view views views.txt --sink gtksink
  echo "views:$views shown (video area not blank)"
else
  echo "en-face / volume part skipped (aooctenface, aooctrender not installed)"
fi

# --- the GL sink (gtkglsink in glsinkbin; Mesa's software GL under Xvfb)
if gst-inspect-1.0 gtkglsink >/dev/null 2>&1 && gst-inspect-1.0 glsinkbin >/dev/null 2>&1; then
  printf 'expect-running\nwait-frames 3\nscreenshot gl.png\nquit\n' > gl.txt
  run_view gl gl.txt --sink gtkglsink
  echo "gtkglsink: B-scans shown (video area not blank)"
else
  echo "gtkglsink part skipped (Debian: gstreamer1.0-gtk3, gstreamer1.0-gl)"
fi

# --- an Aravis camera: the fake GigE Vision camera in a private namespace
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && command -v ip >/dev/null \
    && command -v arv-fake-gv-camera-0.8 >/dev/null && gst-inspect-1.0 aravissrc >/dev/null 2>&1 \
    && unshare -n true 2>/dev/null; then
  for i in $(seq 0 511); do echo "$((800 + i / 10)).$((i % 10))"; done > cal512.txt
  printf 'expect-running\nwait-frames 3\nscreenshot camera.png\nsave camera.ini\nquit\n' > camera.txt
  rc=0
  VIEW=$view unshare -n bash -c '
    ip link set lo up
    arv-fake-gv-camera-0.8 -i 127.0.0.1 > fake-camera.log 2>&1 &
    cam=$!; sleep 1
    GST_DEBUG=aravis*:0 timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" "$VIEW" \
      --camera 127.0.0.1 --width 512 --height 256 --calibration cal512.txt \
      --script camera.txt > camera.log 2>&1
    rc=$?; kill $cam; exit $rc' || rc=$?
  cat camera.log
  [ $rc -eq 0 ] || { echo "FAIL: aooct-view on the fake Aravis camera exited $rc"; exit 1; }
  grep -q '^# gst-launch-1.0 aravissrc camera-name=127.0.0.1 ! video/x-raw,format=GRAY16_LE,width=512,height=256 ! aooctdcsub' camera.ini
  echo "Aravis: the fake GigE Vision camera's frames shown (video area not blank)"
else
  echo "Aravis part skipped (needs root, unshare -n, arv-fake-gv-camera-0.8, aravissrc)"
fi
