#!/usr/bin/env bash
# Runs the CPU test suite under valgrind memcheck: any invalid read or
# write, use of uninitialised memory or definitely lost block fails the
# test that caused it.
#
#   scripts/checks/check-valgrind.sh [meson test args]    e.g. dcsub robust
#   AOOCT_VALGRIND_BUILD   build folder (default: build-valgrind; an
#                          ordinary build without sanitizers)
#
# Suppressions: GLib's (glib.supp, from libglib2.0-dev), GStreamer's
# (gstreamer.supp, from the GStreamer sources: tests/check/gstreamer.supp;
# Debian ships none, so it is used where GST_VALGRIND_SUPP names it or it
# lies in /usr/share/gstreamer-1.0/), and ours, tests/sanitizers/
# valgrind.supp (one-time state of FFTW, OpenMP and the GStreamer core
# that lives until exit, each entry justified).  test-robust runs its long
# loops 100 times shorter here (AOOCT_ROBUST_SCALE=100).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${AOOCT_VALGRIND_BUILD:-$root/build-valgrind}
# shellcheck source=bootstrap.sh
AOOCT_BUILD=$build AOOCT_MESON_ARGS="-Dcuda=disabled" \
  source "$root/scripts/bootstrap.sh" || exit 1
command -v valgrind >/dev/null || { echo "valgrind: not installed (apt-get install valgrind)"; exit 1; }

supps=(--suppressions="$root/tests/sanitizers/valgrind.supp")
for f in /usr/share/glib-2.0/valgrind/glib.supp "${GST_VALGRIND_SUPP:-}" \
    /usr/share/gstreamer-1.0/gstreamer.supp; do
  [ -n "$f" ] && [ -f "$f" ] && supps+=(--suppressions="$f") && echo "valgrind: suppressions $f"
done

export G_SLICE=always-malloc G_DEBUG=gc-friendly
# tests run in parallel on few cores: OpenMP threads that spin while
# another test holds the cores slow both down by an order of magnitude
export OMP_WAIT_POLICY=passive
export AOOCT_ROBUST_SCALE=100
# check's per-test timeouts (CK_DEFAULT_TIMEOUT=120 in the test
# environment) are for native speed; timing tests mean nothing here
export CK_TIMEOUT_MULTIPLIER=10
export GST_CHECKS_IGNORE=test_speed
# one thread per OpenMP region: valgrind serialises threads anyway
export OMP_NUM_THREADS=1
wrapper="valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
--show-leak-kinds=definite --errors-for-leak-kinds=definite \
--num-callers=30 --track-origins=no ${supps[*]}"
"$MESON" test -C "$build" --print-errorlogs --suite cpu \
  --wrapper "$wrapper" --timeout-multiplier 10 --num-processes 1 "$@"
rc=$?
[ $rc -eq 0 ] && echo "valgrind: CPU suite clean (memcheck, definite leaks)"
exit $rc
