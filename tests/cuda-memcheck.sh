#!/bin/sh
# Runs an aooct CUDA test under compute-sanitizer's memcheck, e.g.
#   tests/cuda-memcheck.sh BUILD/tests/test-cuda-norm chain
# (meson runs exactly that as the test 'cuda-norm-memcheck').  Exits 77
# (meson: skipped) without a CUDA device or without compute-sanitizer;
# otherwise 1 on any memcheck error (out-of-bounds or misaligned access,
# invalid API use) or device memory leak, else the test's own status.
# CK_FORK=no keeps the whole test in one process, which the sanitizer
# follows from start to end.
exe=$1
"$exe" probe >/dev/null 2>&1
status=$?
[ $status -eq 0 ] || { echo "SKIP: no usable CUDA device"; exit 77; }
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$san" ] || { echo "SKIP: compute-sanitizer not found"; exit 77; }
CK_FORK=no exec "$san" --tool memcheck --leak-check full --error-exitcode 1 \
  --target-processes all "$@"
