#!/usr/bin/env bash
# The CPU each thread of a running process uses, sampled: which thread
# saturates (issue 30: one process over two GPUs).  Prints, every
# INTERVAL seconds, COUNT times, the busiest threads as
# "% of one core  name  tid" (utime + stime from /proc/PID/task/*/stat).
#
#   scripts/thread-cpu.sh PID [INTERVAL] [COUNT] [TOP]
set -euo pipefail
pid=${1:?usage: scripts/thread-cpu.sh PID [INTERVAL] [COUNT] [TOP]}
interval=${2:-1}
count=${3:-10}
top=${4:-12}
hz=$(getconf CLK_TCK)

snap() {
  local t
  for t in /proc/"$pid"/task/*; do
    # fields after the command's closing parenthesis: 14 utime, 15 stime
    awk -v tid="${t##*/}" '{ sub(/^.*\) /, ""); print tid, $12 + $13 }' \
      "$t/stat" 2>/dev/null || true
  done
}

prev=$(snap)
for ((i = 0; i < count; i++)); do
  sleep "$interval"
  [ -d /proc/"$pid" ] || exit 0
  cur=$(snap)
  echo "--- $(date -u +%T) pid $pid"
  join <(sort <<<"$prev") <(sort <<<"$cur") | while read -r tid a b; do
    name=$(cat /proc/"$pid"/task/"$tid"/comm 2>/dev/null || echo "?")
    awk -v d=$((b - a)) -v hz="$hz" -v s="$interval" -v n="$name" -v t="$tid" \
      'BEGIN { printf "%6.1f %% %-16s %s\n", 100 * d / hz / s, n, t }'
  done | sort -rn | head -n "$top"
  prev=$cur
done
