#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Remote processing between two hosts: pipelines/remote-send.sh in one
# network namespace ("camera"), pipelines/remote-reconstruct.sh in another
# ("GPU host"), joined by a veth pair with private addresses that exist only
# inside these two namespaces.  Checks:
#  - TCP: every raw frame arrives byte-identical (the receiver's copy equals
#    the file sent), none lost, one PNG per B-scan; the throughput over the
#    veth link with a larger file (printed);
#  - SRT with a passphrase: every frame byte-identical, from a camera that
#    streams on (a looping file at 25 B-scans/s) until the receiver has
#    its frames;
#  - SRT with a wrong passphrase: no frame arrives and the receiver says why;
#  - the receiver listens on its address only.
# Exit 77 (skipped) unless root with ip netns and veth, gdppay, tcp and srt
# elements.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

[ "$(id -u)" -eq 0 ] || { echo "needs root (ip netns): skipped"; exit 77; }
command -v ip >/dev/null || { echo "ip missing: skipped"; exit 77; }
for e in gdppay gdpdepay tcpclientsink tcpserversrc srtsink srtsrc pngenc; do
  gst-inspect-1.0 $e >/dev/null 2>&1 || { echo "$e missing: skipped"; exit 77; }
done
cam=aooct-cam-$$ gpu=aooct-gpu-$$
ip netns add $cam 2>/dev/null || { echo "ip netns add not permitted here: skipped"; exit 77; }
out=$(mktemp -d)
pids=()
# a background job is a subshell running ip netns exec running the script
# that execs gst-launch-1.0: stop the whole tree, or the sender outlives us
kill_tree() {
  local c
  for c in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$c"; done
  kill "$1" 2>/dev/null || true
}
cleanup() {
  for p in "${pids[@]}"; do kill_tree "$p"; done
  ip netns del $cam 2>/dev/null || true
  ip netns del $gpu 2>/dev/null || true
  rm -rf "$out"
}
trap cleanup EXIT
ip netns add $gpu
ip link add vc$$ type veth peer name vg$$ 2>/dev/null || { echo "veth not permitted here: skipped"; exit 77; }
ip link set vc$$ netns $cam
ip link set vg$$ netns $gpu
a_cam=10.250.77.1 a_gpu=10.250.77.2
ip -n $cam addr add $a_cam/30 dev vc$$
ip -n $gpu addr add $a_gpu/30 dev vg$$
for ns in $cam $gpu; do ip -n $ns link set lo up; done
ip -n $cam link set vc$$ up
ip -n $gpu link set vg$$ up

export AOOCT_SKIP_BOOTSTRAP=1
n=832 m=240 frame=$((832 * 240 * 2))
in_cam() { ip netns exec $cam "$@"; }
in_gpu() { ip netns exec $gpu "$@"; }
# waits until the GPU namespace listens on TCP port $1 (state 0A in
# /proc/net/tcp: a probe connection would be the receiver's one client)
wait_listen() {
  local hex; hex=$(printf '%04X' "$1")
  for _ in $(seq 100); do
    in_gpu awk -v p=":$hex" '$2 ~ p"$" && $4 == "0A" { f = 1 } END { exit !f }' /proc/net/tcp && return 0
    sleep 0.1
  done
  echo "receiver not listening on $1"; return 1
}
# the same for an SRT listener (UDP, /proc/net/udp)
wait_udp() {
  local hex; hex=$(printf '%04X' "$1")
  for _ in $(seq 100); do
    in_gpu awk -v p=":$hex" '$2 ~ p"$" { f = 1 } END { exit !f }' /proc/net/udp && return 0
    sleep 0.1
  done
  echo "receiver not listening on UDP $1"; return 1
}
file_src() { echo "filesrc location=$1 ! rawvideoparse format=gray16-le width=$n height=$m framerate=100/1"; }

# 40 B-scans of the synthetic camera, each different (speckle, sweep)
gst-launch-1.0 -q aooctsrc num-buffers=40 seed=11 calibration-file="$out/cal.txt" \
  ! filesink location="$out/src.raw"
export AOOCT_WAVELENGTH_FILE=$out/cal.txt

# --- TCP: every frame, byte-identical, reconstructed ---------------------
AOOCT_RAW_COPY=$out/tcp.raw in_gpu "$root/pipelines/remote-reconstruct.sh" $a_gpu 5600 "$out/tcp" \
  >"$out/rcv.log" 2>&1 &
rcv=$!; pids+=($rcv)
wait_listen 5600
# it listens on its address only, not on 0.0.0.0
in_gpu awk '$2 ~ /:15E0$/ && $4 == "0A" { print $2 }' /proc/net/tcp | grep -qv '^00000000:' ||
  { echo "receiver does not listen on $a_gpu only"; exit 1; }
AOOCT_SOURCE=$(file_src "$out/src.raw") in_cam "$root/pipelines/remote-send.sh" $a_gpu 5600 \
  >"$out/send.log" 2>&1 || { cat "$out/send.log"; exit 1; }
wait $rcv || { cat "$out/rcv.log"; echo "TCP receiver failed"; exit 1; }
cmp "$out/src.raw" "$out/tcp.raw" || { echo "TCP: received frames differ from those sent"; exit 1; }
[ "$(ls "$out/tcp" | wc -l)" -eq 40 ] || { ls "$out/tcp"; echo "TCP: not 40 PNGs"; exit 1; }
echo "TCP: 40 of 40 B-scans byte-identical, 40 PNGs"

# throughput: 400 B-scans (160 MB) sent as fast as the link goes, received
# without reconstruction
for _ in $(seq 10); do cat "$out/src.raw"; done >"$out/big.raw"
AOOCT_RECONSTRUCT=0 AOOCT_RAW_COPY=$out/big-rcv.raw in_gpu "$root/pipelines/remote-reconstruct.sh" \
  $a_gpu 5601 >"$out/rcv.log" 2>&1 &
rcv=$!; pids+=($rcv)
wait_listen 5601
t0=$(date +%s.%N)
AOOCT_SOURCE="filesrc location=$out/big.raw ! rawvideoparse format=gray16-le width=$n height=$m" \
  in_cam "$root/pipelines/remote-send.sh" $a_gpu 5601 >"$out/send.log" 2>&1 || { cat "$out/send.log"; exit 1; }
wait $rcv || { cat "$out/rcv.log"; exit 1; }
t1=$(date +%s.%N)
cmp "$out/big.raw" "$out/big-rcv.raw" || { echo "TCP: large transfer differs"; exit 1; }
awk -v t0="$t0" -v t1="$t1" -v b="$(stat -c %s "$out/big.raw")" -v f=$frame 'BEGIN {
  printf "TCP throughput over the veth pair: %.0f MB/s, %.0f B-scans of 832 x 240 per second (%d MB in %.2f s, all byte-identical)\n",
    b / (t1 - t0) / 1e6, b / f / (t1 - t0), b / 1e6, t1 - t0 }'
rm -f "$out/big.raw" "$out/big-rcv.raw"

# --- SRT with a passphrase ---------------------------------------------
export AOOCT_TRANSPORT=srt
# (received and kept, not reconstructed: SRT is live, a receiver that falls
# behind -- PNG encoding on a loaded 2-core machine -- loses late packets;
# the reconstruction of what arrives is the TCP part's)
AOOCT_PASSPHRASE=correct-horse-battery AOOCT_RECEIVE_BSCANS=40 AOOCT_RAW_COPY=$out/srt.raw \
  AOOCT_RECONSTRUCT=0 in_gpu "$root/pipelines/remote-reconstruct.sh" $a_gpu 5602 >"$out/rcv.log" 2>&1 &
rcv=$!; pids+=($rcv)
wait_udp 5602
# a camera that streams on: the file again and again at 25 B-scans/s
AOOCT_PASSPHRASE=correct-horse-battery \
  AOOCT_SOURCE="multifilesrc location=$out/src.raw loop=true ! rawvideoparse format=gray16-le width=$n height=$m framerate=25/1" \
  in_cam "$root/pipelines/remote-send.sh" $a_gpu 5602 >"$out/send.log" 2>&1 &
snd=$!; pids+=($snd)
ok=0
for _ in $(seq 600); do kill -0 $rcv 2>/dev/null || { ok=1; break; }; sleep 0.1; done
kill_tree $snd
[ $ok = 1 ] && wait $rcv || { cat "$out/rcv.log" "$out/send.log"; echo "SRT receiver did not finish"; exit 1; }
cmp "$out/src.raw" "$out/srt.raw" || { echo "SRT: received frames differ from those sent"; exit 1; }
echo "SRT (encrypted): 40 of 40 B-scans byte-identical"

# --- SRT with a wrong passphrase: nothing arrives, the receiver says why --
AOOCT_PASSPHRASE=correct-horse-battery AOOCT_RAW_COPY=$out/wrong.raw \
  in_gpu timeout 6 "$root/pipelines/remote-reconstruct.sh" $a_gpu 5603 "$out/wrong" >"$out/rcv.log" 2>&1 &
rcv=$!; pids+=($rcv)
wait_udp 5603
AOOCT_PASSPHRASE=not-the-right-one AOOCT_SOURCE=$(file_src "$out/src.raw") \
  in_cam timeout 3 "$root/pipelines/remote-send.sh" $a_gpu 5603 >"$out/send.log" 2>&1 || true
wait $rcv || true
[ ! -s "$out/wrong.raw" ] || { echo "SRT: frames arrived with a wrong passphrase"; exit 1; }
[ -z "$(ls "$out/wrong" 2>/dev/null)" ] || { echo "SRT: images made with a wrong passphrase"; exit 1; }
# (its log filter may write a moment after gst-launch-1.0 ended)
for _ in $(seq 20); do grep -q 'rejected: wrong passphrase' "$out/rcv.log" && break; sleep 0.1; done
grep -q 'rejected: wrong passphrase' "$out/rcv.log" || { cat "$out/rcv.log"; echo "receiver did not say why"; exit 1; }
echo "SRT wrong passphrase: no frame, receiver: $(grep -m1 'wrong passphrase' "$out/rcv.log")"
