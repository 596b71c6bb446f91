# Classifies a compute-sanitizer memcheck report (see cuda-memcheck.sh):
# counts our errors and cuFFT's own per-context block; exits 1 when any
# error is ours.
function flush() {
  if (block == "")
    return
  if (block ~ /Leaked/ && block ~ /cuMemAlloc[^\n]*\n[^\n]*libcufft/)
    cufft++
  else if (block ~ /Leaked|Invalid|rror|Misaligned|Out-of-range|Race|race/)
    ours++
  block = ""
}
/^========= [A-Za-z]/ && !/ERROR SUMMARY/ && !/COMPUTE-SANITIZER/ {
  flush(); block = $0; next
}
/^=========  / { block = block "\n" $0; next }
END {
  flush()
  printf "memcheck: %d error(s) of ours, %d cuFFT-internal block(s) accepted\n", ours, cufft
  exit ours > 0
}
