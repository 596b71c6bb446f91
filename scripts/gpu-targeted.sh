source .gstkit/enter.sh || exit 1
B=/tmp/gpu-build
t0=$(date +%s)
(meson setup $B . -Dcuda=enabled -Dcuda-archs=90 && meson compile -C $B) > $OUT/build.log 2>&1 || { tail -40 $OUT/build.log; exit 1; }
echo "build $(( $(date +%s)-t0 )) s"
for v in ${VARIANTS:-default}; do
  if [ "$v" = eager ]; then export CUDA_MODULE_LOADING=EAGER; else unset CUDA_MODULE_LOADING; fi
  meson test -C $B --print-errorlogs ${TESTS:-cuda-faults cuda-sharing cuda-two-gpus cuda-backend-hidden robust-cuda cuda-norm-racecheck} > $OUT/test-$v.log 2>&1
  rc=$?
  cp $B/meson-logs/testlog.txt $OUT/testlog-$v.txt
  echo "== $v: rc $rc, $(( $(date +%s)-t0 )) s"
  grep -E "^ *[0-9]+/[0-9]+ " $OUT/test-$v.log
  grep -E "^fault |with the device|device memory|state cycles|long run|racecheck:|SKIP|images differ|:F:" $OUT/testlog-$v.txt | cut -c1-400 | head -30
done
exit $rc
