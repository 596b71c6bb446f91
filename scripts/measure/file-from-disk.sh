#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Reading a raw file that is NOT in the page cache (issue 16: "from a file
# not in the page cache, the disk's own rate"): writes a file of 2048 x 500
# GRAY16 B-scans next to the repository (on its disk, not /tmp where that
# is a tmpfs), evicts it from the page cache before each run
# (fsync + posix_fadvise DONTNEED, no root needed) and times dd (the
# disk's own rate), aooctfilesrc and filesrc ! rawvideoparse, alone and
# into the chain; then the chain again from the page cache.  Each
# pipeline's time is gst-launch-1.0's "Execution ended after" (PLAYING to
# EOS, without the setup).  After a build, from the repository root:
#
#   GST_PLUGIN_PATH_1_0=BUILD/gst scripts/measure/file-from-disk.sh [FRAMES]
#
# FRAMES (default 1500: 3.07 GB) should be well above what the disk's
# own cache holds.  docs/notes/performance-log.md ("A file not in the page cache")
# has the figures.
set -u
frames=${1:-1500}
for d in "$PWD" /tmp; do
  echo "$d: $(df -T "$d" | awk 'NR==2 {print $2 ", " $5 " free"}')"
done
dir=$PWD/.file-from-disk
mkdir -p "$dir"
f=$dir/raw.bin
trap 'rm -rf "$dir"' EXIT
python3 - "$f" "$frames" <<'PY'
import os, sys
path, n = sys.argv[1], int(sys.argv[2])
frame = bytearray(os.urandom(2048 * 500 * 2))
frame[1::2] = bytes(b & 0x0f for b in frame[1::2])   # 12-bit samples
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
for _ in range(n):
    os.write(fd, frame)
os.fsync(fd)
os.close(fd)
PY
ls -l "$f"
evict() {
  python3 -c "import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)" "$f"
  if command -v fincore > /dev/null; then
    echo "  resident after eviction: $(fincore -n -o RES "$f")"
  fi
}
# the pipelines as argument lists: the file's path is one argument (a
# space in the folder stays in it), never text that eval or gst-launch
# would split
chain=(! aooctdcsub alines-per-bscan=500 ! aooctpad size=2048 factor=2
  ! aooctkmap wavelength-coeffs=785,0.125,1e-05,-2e-09 ! aooctdisp a2=8 a3=-2
  ! aooctfft ! aooctnorm ! video/x-raw,format=GRAY8 ! fakesink)
ours=(aooctfilesrc location="$f" format=gray16-le width=2048 height=500)
parse=(filesrc location="$f" ! rawvideoparse format=gray16-le width=2048
  height=500 framerate=100/1)
run() {   # label, cold|warm, pipeline...
  local label=$1 temp=$2 r
  shift 2
  [ "$temp" = cold ] && evict
  r=$(gst-launch-1.0 "$@" 2>&1 | grep -E "Execution ended|ERROR" | head -2)
  echo "$label [$temp]: $r"
}
for rep in 1 2; do
  evict
  echo "dd [cold]: $(dd if="$f" of=/dev/null bs=4M 2>&1 | tail -1)"
  run "aooctfilesrc ! fakesink" cold "${ours[@]}" ! fakesink
  run "aooctfilesrc ! chain" cold "${ours[@]}" "${chain[@]}"
  run "filesrc ! rawvideoparse ! chain" cold "${parse[@]}" "${chain[@]}"
  run "filesrc ! rawvideoparse ! fakesink" cold "${parse[@]}" ! fakesink
done
echo "dd [warm]: $(dd if="$f" of=/dev/null bs=4M 2>&1 | tail -1)"
run "aooctfilesrc ! chain" warm "${ours[@]}" "${chain[@]}"
run "filesrc ! rawvideoparse ! chain" warm "${parse[@]}" "${chain[@]}"
