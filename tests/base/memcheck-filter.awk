# Classifies a compute-sanitizer memcheck or racecheck report (see
# cuda-memcheck.sh; -v tool=NAME): counts our errors and cuFFT's own
# per-context block; exits 1 when any error is ours.  Summary lines
# ("ERROR SUMMARY", "RACECHECK SUMMARY: 0 hazards displayed") are not
# errors.
function flush() {
  if (block == "")
    return
  if (block ~ /Leaked/ && block ~ /cuMemAlloc[^\n]*\n[^\n]*libcufft/)
    cufft++
  else if (block ~ /Leaked|Invalid|rror|Misaligned|Out-of-range|Race|race/)
    ours++
  block = ""
}
# "Target application returned an error": the test failed, which the
# wrapper reports through its exit status, not an error found by the tool
/^========= [A-Za-z]/ && !/SUMMARY/ && !/COMPUTE-SANITIZER/ && !/Target application returned/ {
  flush(); block = $0; next
}
/^=========  / { block = block "\n" $0; next }
END {
  flush()
  printf "%s: %d error(s) of ours, %d cuFFT-internal block(s) accepted\n", tool ? tool : "memcheck", ours, cufft
  exit ours > 0
}
