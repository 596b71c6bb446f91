#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs the gst-launch-1.0 pipeline of pipelines/remote-send.sh or
# pipelines/remote-reconstruct.sh and says in words what the network did,
# which GStreamer's own messages do not (issue 33, items 3, 5, 15, 16):
#
#   scripts/setup/remote-launch.sh send|receive ADDRESS PORT tcp|srt PIPELINE...
#
# PIPELINE is gst-launch-1.0's description, as separate arguments; for
# receive its network source is named `rx` and its gdpdepay `depay`.
#
# receive: "listening on" only once the source holds the address (a bind
#   that fails is said as such); a client that connects and leaves without
#   sending a stream (a port scan) or sends something that is not one is
#   reported, and the receiver listens again, so it never ends with success
#   having received nothing; an SRT sender rejected for its passphrase, or
#   for sending unencrypted, is named.
# send: the connection's end in words: nobody listening at ADDRESS:PORT,
#   the receiver rejecting the passphrase or an unencrypted sender, or the
#   receiver closing the connection (then the exit status is 0: that is how
#   a receiver that has its AOOCT_RECEIVE_BSCANS ends a stream).
# libsrt gives its reasons only in its log (GST_DEBUG srtlib:4), which is
# read here and not shown; everything else gst-launch-1.0 prints is shown.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 send|receive ADDRESS PORT tcp|srt PIPELINE..." >&2; exit 2; }
role=$1 addr=$2 port=$3 transport=$4
shift 4
say() { printf 'aooct: %s\n' "$*" >&2; }
tmp=$(mktemp -d)
gst='' stopped=''
trap 'rm -rf "$tmp"' EXIT
trap 'stopped=1; [ -z "$gst" ] || kill -INT "$gst" 2>/dev/null || true' INT TERM

# filter < OUTPUT: shows gst-launch-1.0's messages, records in $tmp what
# happened (one file per event), and says it when the words are ours
filter() {
  local line skip=0
  while IFS= read -r line; do
    # an INFO message (the elements' set-up notes, which -q hid): 3 lines
    if [ $skip -gt 0 ]; then skip=$((skip - 1)); continue; fi
    case $line in
      INFO:) skip=2 ;;
      # -m: the source finished starting, so it is bound and listening
      *'from element "rx" (state-changed)'*'old-state=(GstState)ready, new-state=(GstState)paused'*)
        [ "$role" != receive ] || say "listening on $addr:$port ($transport)" ;;
      # -v: gdpdepay knows the sender's caps: a stream has begun
      *'/GstGDPDepay:depay.GstPad:src: caps = '*) : >"$tmp/stream" ;;
      *BADSECRET* | *'Incorrect passphrase'*)
        [ -e "$tmp/badsecret" ] || if [ "$role" = receive ]; then
          say "an SRT sender was rejected: wrong passphrase (it must match AOOCT_PASSPHRASE here); waiting for another"
        else
          say "the receiver at $addr:$port rejected this sender: wrong passphrase (AOOCT_PASSPHRASE must be the receiver's)"
        fi
        : >"$tmp/badsecret" ;;
      *'ERROR:UNSECURE'* | *'Password required or unexpected'*)
        [ -e "$tmp/unsecure" ] || if [ "$role" = receive ]; then
          say "an SRT sender was rejected: it sends unencrypted (no passphrase), and this receiver accepts only AOOCT_PASSPHRASE's encryption; waiting for another"
        else
          say "the receiver at $addr:$port rejected this sender: one side encrypts and the other does not (give both the same AOOCT_PASSPHRASE)"
        fi
        : >"$tmp/unsecure" ;;
      *' srtlib '*) ;;
      # -m, -v and gst-launch-1.0's progress (no -q: it would silence -m)
      *'Got message #'* | *'/GstPipeline:'*': '*' = '*) ;;
      'Setting pipeline to '* | 'Pipeline is '* | 'Redistribute latency'* | 'New clock: '* | \
        'Got EOS from element'* | 'Execution ended after'* | 'Freeing pipeline'* | \
        'handling interrupt'* | 'Interrupt: Stopping pipeline'* | 'Got context from element'* | \
        'Progress: '* | 'EOS on shutdown'* | 'Waiting for EOS'* | 'EOS received'*) ;;
      *'Failed to bind'* | *'Cannot bind'* | *'Address already in use'*)
        printf '%s\n' "$line" >&2; : >"$tmp/bind" ;;
      *'Connection refused'*)
        printf '%s\n' "$line" >&2; : >"$tmp/refused" ;;
      *'Connection does not exist'*)
        printf '%s\n' "$line" >&2; : >"$tmp/noconn" ;;
      # (GStreamer 1.26's srtsink: "Failed to write to SRT socket: Socket is
      # broken or closed", or "...: Connection was broken")
      *'Error on SRT socket'* | *'Connection reset by peer'* | *'Broken pipe'* | *'Error while sending data'* | \
        *'Failed to write to SRT socket'*)
        printf '%s\n' "$line" >&2; : >"$tmp/closed" ;;
      'ERROR: from element /GstPipeline:pipeline0/GstGDPDepay:depay:'*)
        printf '%s\n' "$line" >&2; : >"$tmp/depay-error" ;;
      *) printf '%s\n' "$line" >&2 ;;
    esac
  done
}

# run: the pipeline once, its output through filter; its exit status
run() {
  rm -f "$tmp"/[a-z]*
  rm -f "$tmp/out"; mkfifo "$tmp/out"
  GST_DEBUG="${GST_DEBUG:+$GST_DEBUG,}srtlib:4" GST_DEBUG_NO_COLOR=1 \
    gst-launch-1.0 -m -v "$@" >"$tmp/out" 2>&1 &
  gst=$!
  filter <"$tmp/out" &
  local f=$! rc=0
  wait $gst || rc=$?
  # a signal interrupts the first wait: wait for gst-launch-1.0 to end
  if kill -0 $gst 2>/dev/null; then rc=0; wait $gst || rc=$?; fi
  wait $f || true
  gst=
  return $rc
}

if [ "$role" = send ]; then
  rc=0; run "$@" || rc=$?
  if [ -n "$stopped" ]; then exit $rc; fi
  if [ -e "$tmp/badsecret" ] || [ -e "$tmp/unsecure" ]; then
    exit 1 # said above
  elif [ -e "$tmp/refused" ] || [ -e "$tmp/noconn" ]; then
    say "no receiver answered at $addr:$port over $transport: start pipelines/remote-reconstruct.sh there first (AOOCT_TRANSPORT=$transport, port $port)"
    exit 1
  elif [ -e "$tmp/closed" ]; then
    say "the receiver at $addr:$port closed the connection (it has the B-scans it asked for, AOOCT_RECEIVE_BSCANS, or it was stopped): sending ended"
    exit 0
  fi
  exit $rc
fi

while :; do
  rc=0; run "$@" || rc=$?
  if [ -n "$stopped" ]; then exit $rc; fi
  if [ -e "$tmp/bind" ]; then
    say "cannot listen on $addr:$port ($transport): the address is not this host's, or the port is taken (see above)"
    exit 1
  fi
  [ ! -e "$tmp/stream" ] || exit $rc
  # no stream began: a client that connected and left, or sent no GDP
  if [ $rc = 0 ]; then
    say "a client connected to $addr:$port and left without sending a stream; listening again"
  elif [ -e "$tmp/depay-error" ]; then
    say "a client sent $addr:$port something that is not an aooct stream (gdppay; error above); listening again"
  else
    exit $rc
  fi
done
