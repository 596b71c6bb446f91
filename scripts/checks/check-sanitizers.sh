#!/usr/bin/env bash
# Builds aooct with AddressSanitizer + UndefinedBehaviorSanitizer (CUDA off)
# and runs the CPU test suite under them; any sanitizer report fails.
#
#   scripts/checks/check-sanitizers.sh [meson test args]   e.g. a test name
#   AOOCT_ASAN_BUILD   build folder (default: build-asan)
#
# The sanitized plugin cannot be loaded by gst-plugin-scanner (not built
# with ASan), so plugins are loaded in the test process (GST_REGISTRY_FORK=
# no) and only the few GStreamer plugins the tests use are visible: each
# loaded system plugin brings its own libraries' start-up leaks (udev,
# fontconfig, OpenNI...).  Leaks that remain are GLib/GStreamer/FFTW/OpenMP
# one-time state, suppressed by tests/sanitizers/lsan.supp (each entry says
# why); a leak in aooct's code is never suppressed.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${AOOCT_ASAN_BUILD:-$root/build-asan}
# shellcheck source=bootstrap.sh
AOOCT_BUILD=$build AOOCT_MESON_ARGS="-Dcuda=disabled -Dfault-injection=true -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug -Doptimization=1" \
  source "$root/scripts/bootstrap.sh" || exit 1

sysdir=$(pkg-config --variable=pluginsdir gstreamer-1.0)
plugins=$build/sanitizer-plugins
rm -rf "$plugins"; mkdir -p "$plugins"
for p in coreelements app rawparse videoconvertscale png multifile videotestsrc; do
  [ -e "$sysdir/libgst$p.so" ] && ln -s "$sysdir/libgst$p.so" "$plugins/"
done
export GST_REGISTRY_FORK=no
export GST_PLUGIN_SYSTEM_PATH_1_0=$plugins
export GST_REGISTRY_1_0=$build/sanitizer-registry.bin
# meson test sets its own registry (tests/registry.bin): never reuse one
# written by a plugin scanner that could not load the sanitized plugin
rm -f "$GST_REGISTRY_1_0" "$build/tests/registry.bin"
export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1
export LSAN_OPTIONS=suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# GLib's slice allocator hides use-after-free from ASan
export G_SLICE=always-malloc G_DEBUG=gc-friendly
# tests run in parallel on few cores: OpenMP threads that spin while
# another test holds the cores slow both down by an order of magnitude
export OMP_WAIT_POLICY=passive
# test-robust's 1000 state cycles and 100,000 B-scans, 10 times fewer:
# LeakSanitizer checks what its RSS bounds check (skipped when scaled)
export AOOCT_ROBUST_SCALE=10
# sanitized code runs 2-5x slower: meson's timeouts and check's per-test
# CK_DEFAULT_TIMEOUT (tests/meson.build) alike.
export CK_TIMEOUT_MULTIPLIER=3
# The 'pipelines' suite (the demo script) runs gst-launch-1.0, which cannot
# load the sanitized plugin: not here.
"$MESON" test -C "$build" --print-errorlogs --suite cpu \
  --timeout-multiplier 3 "$@"
rc=$?
# meson's test environment overrides GST_PLUGIN_PATH / GST_REGISTRY; the
# lines above set the others.  A sanitizer report fails its test (non-zero
# exit); say so plainly.
grep -l -E "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" \
  "$build/meson-logs/testlog.txt" >/dev/null 2>&1 &&
  echo "sanitizers: reports found, see $build/meson-logs/testlog.txt"
[ $rc -eq 0 ] && echo "sanitizers: CPU suite clean (ASan + UBSan + LSan)"
exit $rc
