#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs an aooct CUDA test under compute-sanitizer's memcheck, e.g.
#   CK_RUN_CASE=cuda GST_CHECKS=test_whole_chain \
#     tests/base/cuda-memcheck.sh BUILD/tests/test-norm
# (the "cuda" tcase of test-norm, its whole-chain test only: meson runs
# exactly that as the test 'norm-cuda-memcheck'), or under racecheck
# (shared-memory data hazards) with --tool=racecheck first (meson:
# 'norm-cuda-racecheck').  Exits 77 (meson: skipped) without a
# CUDA device or without compute-sanitizer; otherwise 1 on any error of
# ours (out-of-bounds or misaligned access, invalid API use, a device
# memory leak, a race hazard), else the test's status.
# CK_FORK=no keeps the whole test in one process, which the sanitizer
# follows from start to end.
#
# One report is not ours and is accepted: cuFFT keeps one block of about
# 7 MB per CUDA context for itself (the same size for every plan type and
# batch), which it frees when the library unloads.  Where a GstCudaContext
# is destroyed before that (every pipeline in the test makes its own), the
# sanitizer reports that block as leaked, with an allocation backtrace that
# starts inside libcufft (cuMemAlloc called from libcufft, not from our
# cudaMalloc).  A standalone cufftMakePlanMany + cufftDestroy +
# cudaDeviceReset reproduces it exactly (docs/cuda-memory.md).
tool=memcheck
case $1 in --tool=*) tool=${1#--tool=}; shift ;; esac
case $tool in
  memcheck) opts=(--leak-check full) ;;
  racecheck) opts=(--racecheck-report all) ;;
  *) echo "unknown tool $tool (memcheck, racecheck)"; exit 2 ;;
esac
exe=$1
# a device the driver lists (the test itself skips, 77, if it cannot use it)
{ command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q GPU; } \
  || { echo "SKIP: no CUDA device"; exit 77; }
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$san" ] || { echo "SKIP: compute-sanitizer not found"; exit 77; }
log=$(mktemp); trap 'rm -f "$log"' EXIT
CK_FORK=no "$san" --tool "$tool" "${opts[@]}" --target-processes all \
  "$@" >"$log" 2>&1
status=$?
cat "$log"
awk -v tool="$tool" -f "$(dirname "$0")/memcheck-filter.awk" "$log" || exit 1
exit $status
