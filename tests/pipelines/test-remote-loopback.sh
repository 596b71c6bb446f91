#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pipelines/remote-send.sh and remote-reconstruct.sh on this host's
# loopback addresses only (127.0.0.1 and ::1; no root needed), for what the
# network does to them (issue 33, items 3, 5, 15, 16):
#  - the receiver ends first (AOOCT_RECEIVE_BSCANS): the sender ends within
#    seconds over TCP and over SRT, exit 0, saying the receiver closed;
#  - clients that connect and leave without a stream (a port scan; an SRT
#    caller that sends nothing; bytes that are not GDP): the receiver says
#    so, listens again, and then takes the real sender's stream whole;
#  - SRT: no receiver, a wrong passphrase and an unencrypted sender each
#    named as such at the sender, the last two at the receiver too;
#  - "listening on" only once bound: an address not this host's and a port
#    taken fail saying so; 0.0.0.0 and :: refused without AOOCT_LISTEN_ALL.
# Exit 77 (skipped) without gdppay, the tcp and the srt elements.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
for e in gdppay gdpdepay tcpclientsink tcpserversrc srtsink srtsrc pngenc; do
  gst-inspect-1.0 $e >/dev/null 2>&1 || { echo "$e missing: skipped"; exit 77; }
done
export AOOCT_SKIP_BOOTSTRAP=1
unset AOOCT_TRANSPORT AOOCT_PASSPHRASE AOOCT_RECEIVE_BSCANS AOOCT_BSCANS AOOCT_SOURCE \
  AOOCT_SINK AOOCT_RAW_COPY AOOCT_RECONSTRUCT AOOCT_LISTEN_ALL
out=$(mktemp -d)
pids=()
# a job is a subshell running the script running gst-launch-1.0: stop the tree
kill_tree() {
  local c
  for c in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$c"; done
  kill "$1" 2>/dev/null || true
}
cleanup() {
  for p in "${pids[@]}"; do kill_tree "$p"; done
  rm -rf "$out"
}
trap cleanup EXIT
port=$((20000 + RANDOM % 20000))
frame=$((832 * 240 * 2))
pass=correct-horse-battery
rcv=$root/pipelines/remote-reconstruct.sh snd=$root/pipelines/remote-send.sh

# said LOG TEXT [N]: waits (10 s at most) until TEXT is in LOG N times
said() {
  for _ in $(seq 100); do
    [ "$(grep -cF -- "$2" "$1" 2>/dev/null)" -ge "${3:-1}" ] && return 0
    sleep 0.1
  done
  cat "$1"; echo "not said (${3:-1} times) in $1: $2"; return 1
}
# receiver LOG ENV...: remote-reconstruct.sh on $addr:$port in the
# background (pid in $rpid) with the environment ENV, once it listens
receiver() {
  local log=$1; shift
  env "$@" timeout 60 "$rcv" "$addr" $port "$out/png" >"$log" 2>&1 &
  rpid=$!; pids+=($rpid)
  said "$log" "listening on $addr:$port"
}
frames() { echo $(($(stat -c %s "$1") / frame)); }

# --- the receiver ends first: the sender ends at once, saying why ---------
for t in tcp srt; do
  addr=127.0.0.1 port=$((port + 1))
  receiver "$out/r.log" AOOCT_TRANSPORT=$t AOOCT_PASSPHRASE=$pass AOOCT_RECEIVE_BSCANS=5 \
    AOOCT_RECONSTRUCT=0 AOOCT_RAW_COPY="$out/$t.raw"
  t0=$(date +%s%N); rc=0
  # 1000 B-scans at 100/s: 10 s if it did not end with the receiver
  AOOCT_TRANSPORT=$t AOOCT_PASSPHRASE=$pass AOOCT_BSCANS=1000 \
    timeout 30 "$snd" $addr $port >"$out/s.log" 2>&1 || rc=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  wait $rpid || { cat "$out/r.log"; echo "$t: receiver failed"; exit 1; }
  [ $rc = 0 ] && [ $ms -lt 6000 ] && grep -q 'aooct: the receiver at .* closed the connection' "$out/s.log" ||
    { cat "$out/s.log"; echo "$t: sender rc $rc after $ms ms, not ended by the receiver's end"; exit 1; }
  [ "$(frames "$out/$t.raw")" = 5 ] || { echo "$t: $(frames "$out/$t.raw") B-scans, not 5"; exit 1; }
  echo "$t: receiver ended after 5 B-scans, the sender $ms ms after it began: $(grep -o 'closed the connection' "$out/s.log")"
done

# --- clients that connect and leave: reported, the receiver listens on ----
addr=::1 port=$((port + 1))
receiver "$out/r.log" AOOCT_RECEIVE_BSCANS=3
# a port scan: connect, close
bash -c "exec 3<>/dev/tcp/$addr/$port; exec 3>&-"
said "$out/r.log" 'left without sending a stream; listening again'
said "$out/r.log" "listening on $addr:$port" 2
# bytes that are not a GDP stream
bash -c "exec 3<>/dev/tcp/$addr/$port; head -c 20000 /dev/urandom >&3; exec 3>&-"
said "$out/r.log" 'listening again' 2
said "$out/r.log" "listening on $addr:$port" 3
AOOCT_BSCANS=3 timeout 30 "$snd" $addr $port >"$out/s.log" 2>&1 || { cat "$out/s.log"; exit 1; }
wait $rpid || { cat "$out/r.log"; echo "tcp: receiver failed after the port scan"; exit 1; }
[ "$(ls "$out/png" | wc -l)" = 3 ] || { ls "$out/png"; echo "tcp: not 3 images after the port scan"; exit 1; }
grep -q 'aooct: 3 images in' "$out/r.log" || { cat "$out/r.log"; exit 1; }
echo "tcp: a port scan and 20 kB of noise reported, then 3 B-scans reconstructed"

port=$((port + 1))
receiver "$out/r.log" AOOCT_TRANSPORT=srt AOOCT_PASSPHRASE=$pass AOOCT_RECEIVE_BSCANS=3 \
  AOOCT_RECONSTRUCT=0 AOOCT_RAW_COPY="$out/scan.raw"
# an SRT caller that connects and sends nothing (for a second and a half:
# one that leaves at once may be gone before the listener accepts it, on a
# loaded machine, and then there is nothing to report)
timeout 10 gst-launch-1.0 -q fakesrc num-buffers=1 ! identity sleep-time=1500000 \
  ! identity drop-probability=1.0 ! srtsink uri="srt://[$addr]:$port?mode=caller" passphrase=$pass >/dev/null 2>&1 || true
said "$out/r.log" 'left without sending a stream; listening again'
said "$out/r.log" "listening on $addr:$port" 2
AOOCT_TRANSPORT=srt AOOCT_PASSPHRASE=$pass AOOCT_BSCANS=300 timeout 30 "$snd" $addr $port \
  >"$out/s.log" 2>&1 || { cat "$out/s.log"; exit 1; }
wait $rpid || { cat "$out/r.log"; echo "srt: receiver failed after an empty caller"; exit 1; }
[ "$(frames "$out/scan.raw")" = 3 ] || { echo "srt: $(frames "$out/scan.raw") B-scans, not 3"; exit 1; }
echo "srt: a caller that sent nothing reported, then 3 B-scans received"

# --- SRT: each failure to connect named, on both sides --------------------
export AOOCT_TRANSPORT=srt
addr=127.0.0.1 port=$((port + 1))
rc=0; AOOCT_PASSPHRASE=$pass AOOCT_BSCANS=100 timeout 30 "$snd" $addr $port >"$out/s.log" 2>&1 || rc=$?
[ $rc = 1 ] && grep -q "aooct: no receiver answered at $addr:$port" "$out/s.log" ||
  { cat "$out/s.log"; echo "srt, nobody listening: rc $rc"; exit 1; }
receiver "$out/r.log" AOOCT_PASSPHRASE=$pass AOOCT_RECONSTRUCT=0 AOOCT_RAW_COPY="$out/wrong.raw"
rc=0; AOOCT_PASSPHRASE=not-the-right-one AOOCT_BSCANS=100 timeout 30 "$snd" $addr $port >"$out/s.log" 2>&1 || rc=$?
[ $rc = 1 ] && grep -q 'rejected this sender: wrong passphrase' "$out/s.log" &&
  ! grep -q 'no receiver answered' "$out/s.log" ||
  { cat "$out/s.log"; echo "srt, wrong passphrase: rc $rc, not said"; exit 1; }
said "$out/r.log" 'an SRT sender was rejected: wrong passphrase'
# a sender with no passphrase at all (gst-launch-1.0 by hand)
rc=0; timeout 30 "$root/scripts/setup/remote-launch.sh" send $addr $port srt aooctsrc num-buffers=20 ! gdppay \
  ! srtsink uri="srt://$addr:$port?mode=caller" auto-reconnect=false >"$out/s.log" 2>&1 || rc=$?
[ $rc = 1 ] && grep -q 'rejected this sender: one side encrypts and the other does not' "$out/s.log" ||
  { cat "$out/s.log"; echo "srt, unencrypted sender: rc $rc, not said"; exit 1; }
said "$out/r.log" 'an SRT sender was rejected: it sends unencrypted'
[ ! -s "$out/wrong.raw" ] || { echo "srt: frames arrived from a rejected sender"; exit 1; }
kill_tree $rpid
echo "srt: nobody listening, wrong passphrase, unencrypted: each named"
unset AOOCT_TRANSPORT

# --- listening: only once bound; never everywhere unless asked ------------
for t in tcp srt; do
  # 203.0.113.77 (TEST-NET-3, RFC 5737) is no host's address (this VM is 192.0.2.2)
  rc=0; AOOCT_TRANSPORT=$t AOOCT_PASSPHRASE=$pass timeout 20 "$rcv" 203.0.113.77 $port "$out/png" \
    >"$out/r.log" 2>&1 || rc=$?
  [ $rc != 0 ] && grep -q 'aooct: cannot listen on 203.0.113.77' "$out/r.log" &&
    ! grep -q 'listening on' "$out/r.log" ||
    { cat "$out/r.log"; echo "$t: bind failure: rc $rc, or said listening"; exit 1; }
done
# a port that another receiver holds
addr=127.0.0.1 port=$((port + 1))
receiver "$out/r1.log"
rc=0; timeout 20 "$rcv" $addr $port "$out/png" >"$out/r.log" 2>&1 || rc=$?
[ $rc != 0 ] && grep -q "aooct: cannot listen on $addr:$port" "$out/r.log" &&
  ! grep -q 'listening on' "$out/r.log" ||
  { cat "$out/r.log"; echo "port taken: rc $rc, or said listening"; exit 1; }
kill_tree $rpid
# every spelling of every interface (issue 41: ::0 and 0:0::0 passed a
# pattern), parsed as addresses
for a in 0.0.0.0 :: '[::]' ::0 0:0::0 0 0.0 0x0 000.0.0.0 ::ffff:0.0.0.0 '*'; do
  rc=0; timeout 20 "$rcv" "$a" $port "$out/png" >"$out/r.log" 2>&1 || rc=$?
  [ $rc = 2 ] && grep -q 'every interface.*AOOCT_LISTEN_ALL=1' "$out/r.log" ||
    { cat "$out/r.log"; echo "$a accepted without AOOCT_LISTEN_ALL (rc $rc)"; exit 1; }
done
for a in 127.0.0.1 ::1 '[::1]' 10.0.0.2 localhost; do
  ! python3 "$root/scripts/setup/every-interface.py" "$a" || { echo "$a taken for every interface"; exit 1; }
done
echo "listening: said only once bound; a foreign address and a taken port refused; every spelling of every interface needs AOOCT_LISTEN_ALL=1"

# --- OUTDIR is a path, never a printf format or two words (issue 41) ------
odd="$out/odd %s%n%d dir"
addr=127.0.0.1 port=$((port + 1))
timeout 60 env AOOCT_RECEIVE_BSCANS=2 "$rcv" "$addr" $port "$odd" >"$out/r.log" 2>&1 &
rpid=$!; pids+=($rpid)
said "$out/r.log" "listening on $addr:$port"
AOOCT_BSCANS=20 timeout 30 "$snd" $addr $port >"$out/s.log" 2>&1 || true
wait $rpid || { cat "$out/r.log"; echo "receiver into '$odd' failed"; exit 1; }
[ "$(ls "$odd")" = "bscan-00000.png
bscan-00001.png" ] || { ls -la "$out" "$odd"; cat "$out/r.log"; echo "images not in '$odd'"; exit 1; }
echo "remote-reconstruct.sh: OUTDIR '%s%n%d' with a space holds the images, nothing elsewhere"
