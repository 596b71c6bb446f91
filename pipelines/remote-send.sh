#!/usr/bin/env bash
# Remote processing, camera side: sends raw B-scans to a GPU host that runs
# pipelines/remote-reconstruct.sh, with GStreamer's own transports: gdppay
# keeps the caps (the geometry) and the frame boundaries, over TCP
# (tcpclientsink) or, on a network others share, over SRT with AES
# encryption (srtsink with a passphrase).  This side only connects to the
# receiver's address; it binds nothing.  It ends saying why when nobody
# listens, when the receiver rejects the passphrase, and when the receiver
# closes the connection (exit status 0: a receiver with
# AOOCT_RECEIVE_BSCANS ends the stream that way).
#
#   pipelines/remote-send.sh RECEIVER_ADDRESS [PORT]     (default port 5600)
#   AOOCT_TRANSPORT=tcp|srt    tcp (default) or srt (encrypted)
#   AOOCT_PASSPHRASE=SECRET    srt: the shared passphrase, 10..79 characters
#                              (required for srt; both sides use the same)
#   AOOCT_SOURCE=DESCRIPTION   the raw source as a gst-launch-1.0 fragment, e.g.
#                              "aravissrc ! video/x-raw,format=GRAY16_LE" or
#                              "aooctfilesrc location=f.raw
#                              format=gray16-le width=832 height=240
#                              framerate=100/1" (default: the synthetic
#                              camera aooctsrc, live, 100 B-scans/s)
#   AOOCT_BSCANS=N             synthetic camera: stop after N B-scans
#                              (default: until Ctrl-C)
#   AOOCT_SKIP_BOOTSTRAP=1     use the aooct already on GST_PLUGIN_PATH
#                              (else: installs missing runtime packages only;
#                              build aooct first with scripts/bootstrap.sh)
# SRT is a live protocol: the sender keeps to the timestamps (sync=true), so
# a file source needs a framerate; TCP sends as fast as the link allows.
# docs/howto.md, "Remote processing", has both ends and the wiring.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# what running needs, no build tools (scripts/setup/runtime-deps.sh); gdppay,
# gdpdepay, srtsink and srtsrc are in plugins-bad
aooct_extra_packages=(gstreamer1.0-plugins-bad)
# shellcheck source=../scripts/setup/runtime-deps.sh
source "$root/scripts/setup/runtime-deps.sh"

addr=${1:-}
port=${2:-5600}
[ -n "$addr" ] || { echo "usage: $0 RECEIVER_ADDRESS [PORT]" >&2; exit 2; }
# an IPv6 address goes into a URI in brackets
uri_host=$addr
case $addr in *:*) case $addr in '['*) ;; *) uri_host="[$addr]" ;; esac ;; esac
source_desc=${AOOCT_SOURCE:-aooctsrc is-live=true framerate=100/1 num-buffers=${AOOCT_BSCANS:--1}}

case ${AOOCT_TRANSPORT:-tcp} in
  tcp)
    host=${addr#[}
    sink=(tcpclientsink host="${host%]}" port="$port" sync=false) ;;
  srt)
    pass=${AOOCT_PASSPHRASE:-}
    if [ ${#pass} -lt 10 ] || [ ${#pass} -gt 79 ]; then
      echo "$0: AOOCT_TRANSPORT=srt needs AOOCT_PASSPHRASE of 10 to 79 characters" >&2
      exit 2
    fi
    # auto-reconnect=false: when the receiver ends the connection (it has
    # its AOOCT_RECEIVE_BSCANS) this ends too, instead of calling forever
    sink=(srtsink uri="srt://$uri_host:$port?mode=caller" passphrase="$pass" sync=true
      auto-reconnect=false) ;;
  *)
    echo "$0: AOOCT_TRANSPORT must be tcp or srt, not '${AOOCT_TRANSPORT}'" >&2; exit 2 ;;
esac

echo "aooct: sending raw B-scans to $addr:$port over ${AOOCT_TRANSPORT:-tcp}" >&2
# the connection's end said in words: nobody listening, a rejected
# passphrase, the receiver closing (scripts/setup/remote-launch.sh)
# shellcheck disable=SC2086  # the source is a pipeline fragment
exec "$root/scripts/setup/remote-launch.sh" send "$addr" "$port" "${AOOCT_TRANSPORT:-tcp}" \
  $source_desc ! gdppay ! "${sink[@]}"
