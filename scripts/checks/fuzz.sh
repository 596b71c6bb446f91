#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (-fsanitize=fuzzer,
# address,undefined) and runs each for a while, starting from the seed
# corpus in fuzz/corpus/TARGET (new inputs go to the build folder, not the
# repository).  Exit 0 when no target found a crash, a leak or a broken
# promise (the targets' own checks trap).
#
#   scripts/checks/fuzz.sh [SECONDS]    seconds per target (default 30); CI runs 30
#   AOOCT_FUZZ_BUILD             build folder (default: build-fuzz)
#
# A crash leaves its input in $AOOCT_FUZZ_BUILD/artifacts/; replay it with
#   build-fuzz/fuzz-textfile build-fuzz/artifacts/crash-...
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-30}
build=${AOOCT_FUZZ_BUILD:-$root/build-fuzz}
targets=(textfile coeffs)
CC=${CLANG:-clang}

command -v "$CC" >/dev/null || { echo "fuzz: $CC not found (scripts/bootstrap.sh installs clang)"; exit 1; }
mkdir -p "$build/artifacts"
# shellcheck disable=SC2207
glib=($(pkg-config --cflags --libs glib-2.0))
common=("$root/common/aooct-textfile.c" "$root/common/aooct-open.c" "$root/common/aooct-calib.c"
  "$root/common/aooct-kmap-table.c"
  "$root/common/aooct-geometry.c" "$root/common/aooct-error.c")
flags=(-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
  -fno-sanitize-recover=undefined -I"$root/common")

rc=0
for t in "${targets[@]}"; do
  if ! "$CC" "${flags[@]}" -o "$build/fuzz-$t" "$root/fuzz/fuzz-$t.c" \
      "${common[@]}" "${glib[@]}" -lm; then
    echo "fuzz-$t: BUILD FAILED"; rc=1; continue
  fi
  mkdir -p "$build/corpus-$t"
  log=$build/fuzz-$t.log
  # GLib's g_return_if_fail criticals would only be logged: make them fatal
  if G_DEBUG=fatal-criticals "$build/fuzz-$t" "$build/corpus-$t" \
      "$root/fuzz/corpus/$t" -max_total_time="$seconds" -max_len=4096 \
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$t-" >"$log" 2>&1; then
    runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    echo "fuzz-$t: OK, $runs runs in ${seconds} s, $cov"
  else
    echo "fuzz-$t: FAILED (input in $build/artifacts/; log $log)"
    grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5
    rc=1
  fi
done
exit $rc
