#!/usr/bin/env bash
# Remote processing, GPU side: receives the raw B-scans that
# pipelines/remote-send.sh sends (gdpdepay restores caps and frames; TCP or
# encrypted SRT) and reconstructs them with the chain (backend=auto: CUDA on
# this host's GPU) into a PNG per B-scan, or any sink you name.  It listens
# only on the address it is given, never on every interface (0.0.0.0 or ::
# is refused unless AOOCT_LISTEN_ALL=1).  A client that connects and leaves
# without a stream (a port scan) is reported and it listens again; it ends
# non-zero when it made no image.
#
#   pipelines/remote-reconstruct.sh LISTEN_ADDRESS [PORT] [OUTDIR]
#                              (default port 5600, OUTDIR out/remote)
#   AOOCT_TRANSPORT=tcp|srt    as the sender (default tcp)
#   AOOCT_PASSPHRASE=SECRET    srt: the sender's passphrase; a sender with
#                              another one is rejected and this script says so
#   AOOCT_WAVELENGTH_FILE=F    the spectrometer's calibration; without it
#   AOOCT_WAVELENGTH_COEFFS=C  lambda(p) coefficients (default: aooctsrc's
#                              "785,0.125,1e-05,-2e-09")
#   AOOCT_A2, AOOCT_A3         dispersion coefficients (default 8, -2: aooctsrc's)
#   AOOCT_SINK=DESCRIPTION     where images go instead of OUTDIR/bscan-NNNNN.png,
#                              e.g. "videoconvert ! autovideosink", or back
#                              over the network: "gdppay ! tcpclientsink host=H port=P"
#   AOOCT_RAW_COPY=FILE        also write the raw frames as received to FILE
#   AOOCT_RECONSTRUCT=0        only receive (with AOOCT_RAW_COPY: a recorder)
#   AOOCT_RECEIVE_BSCANS=N     stop after N B-scans (default: until the
#                              sender ends, or Ctrl-C)
#   AOOCT_LISTEN_ALL=1         allow LISTEN_ADDRESS 0.0.0.0 or :: (every
#                              interface: anyone who reaches this host can
#                              send it frames; over TCP unencrypted)
#   AOOCT_SKIP_BOOTSTRAP=1     use the aooct already on GST_PLUGIN_PATH
#                              (else: installs missing runtime packages only;
#                              build aooct first with scripts/bootstrap.sh)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# what running needs, no build tools (scripts/setup/runtime-deps.sh); gdppay,
# gdpdepay, srtsink and srtsrc are in plugins-bad
aooct_extra_packages=(gstreamer1.0-plugins-bad)
# shellcheck source=../scripts/setup/runtime-deps.sh
source "$root/scripts/setup/runtime-deps.sh"

addr=${1:-}
port=${2:-5600}
out=${3:-$root/out/remote}
[ -n "$addr" ] || { echo "usage: $0 LISTEN_ADDRESS [PORT] [OUTDIR] (the address of this host to listen on)" >&2; exit 2; }
# every spelling of "every interface" (0, 0.0.0.0, ::, ::0, 0:0::0, [::],
# ::ffff:0.0.0.0, a name that resolves to one ...), parsed, not matched
if python3 "$root/scripts/setup/every-interface.py" "$addr"; then
  if [ "${AOOCT_LISTEN_ALL:-}" != 1 ]; then
    echo "$0: $addr listens on every interface of this host; give the address of the one" \
      "the sender reaches (e.g. 10.0.0.2), or set AOOCT_LISTEN_ALL=1 to listen on all" >&2
    exit 2
  fi
  echo "aooct: AOOCT_LISTEN_ALL=1: listening on every interface" >&2
fi
# an IPv6 address goes into a URI in brackets
uri_host=$addr
case $addr in *:*) case $addr in '['*) ;; *) uri_host="[$addr]" ;; esac ;; esac

case ${AOOCT_TRANSPORT:-tcp} in
  tcp)
    host=${addr#[}
    src=(tcpserversrc name=rx host="${host%]}" port="$port") ;;
  srt)
    pass=${AOOCT_PASSPHRASE:-}
    if [ ${#pass} -lt 10 ] || [ ${#pass} -gt 79 ]; then
      echo "$0: AOOCT_TRANSPORT=srt needs AOOCT_PASSPHRASE of 10 to 79 characters" >&2
      exit 2
    fi
    # a listener on this address only (srtsrc's localaddress)
    src=(srtsrc name=rx uri="srt://$uri_host:$port?mode=listener" passphrase="$pass") ;;
  *)
    echo "$0: AOOCT_TRANSPORT must be tcp or srt, not '${AOOCT_TRANSPORT}'" >&2; exit 2 ;;
esac

stop=()
# identity passes N - 1 buffers and ends the stream at the N-th: N + 1
[ -z "${AOOCT_RECEIVE_BSCANS:-}" ] || stop=(! identity eos-after=$((AOOCT_RECEIVE_BSCANS + 1)))
copy=()
[ -z "${AOOCT_RAW_COPY:-}" ] || copy=(! tee name=raw raw. ! queue max-size-buffers=64 ! filesink location="$AOOCT_RAW_COPY" raw.)

if [ "${AOOCT_RECONSTRUCT:-1}" = 0 ]; then
  chain=(! fakesink sync=false)
else
  if [ -n "${AOOCT_WAVELENGTH_FILE:-}" ]; then
    kmap=(wavelength-file="$AOOCT_WAVELENGTH_FILE")
  else
    kmap=(wavelength-coeffs="${AOOCT_WAVELENGTH_COEFFS:-785,0.125,1e-05,-2e-09}")
  fi
  if [ -n "${AOOCT_SINK:-}" ]; then
    # shellcheck disable=SC2206  # a pipeline fragment
    sink=($AOOCT_SINK)
  else
    mkdir -p "$out"
    # multifilesink's location is a printf format: a '%' of the folder's
    # name is written '%%' (else "%s%n" would crash it, "%d" write
    # elsewhere); one argument, so a space stays in the path
    sink=(pngenc ! multifilesink location="${out//%/%%}/bscan-%05d.png")
  fi
  chain=(! queue max-size-buffers=8 ! aooctdcsub ! aooctpad ! aooctkmap "${kmap[@]}"
    ! aooctdisp a2="${AOOCT_A2:-8}" a3="${AOOCT_A3:--2}" ! aooctfft
    ! aooctnorm ! "${sink[@]}")
fi

# the network's events said in words (scripts/setup/remote-launch.sh): listening
# once bound, clients that leave without a stream, rejected SRT senders
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
rc=0
"$root/scripts/setup/remote-launch.sh" receive "$addr" "$port" "${AOOCT_TRANSPORT:-tcp}" \
  "${src[@]}" ! gdpdepay name=depay "${stop[@]}" "${copy[@]}" "${chain[@]}" || rc=$?
[ $rc = 0 ] || exit $rc
# a stream that began and ended without a B-scan is not a success
if [ -n "${AOOCT_RAW_COPY:-}" ] && [ ! -s "$AOOCT_RAW_COPY" ]; then
  echo "aooct: the sender's stream ended before its first B-scan: $AOOCT_RAW_COPY is empty" >&2
  exit 1
fi
if [ "${AOOCT_RECONSTRUCT:-1}" != 0 ] && [ -z "${AOOCT_SINK:-}" ]; then
  made=$(find "$out" -maxdepth 1 -name 'bscan-*.png' -newer "$stamp" | wc -l)
  [ "$made" -gt 0 ] || { echo "aooct: the sender's stream ended before its first B-scan: no image in $out" >&2; exit 1; }
  echo "aooct: $made images in $out" >&2
fi
