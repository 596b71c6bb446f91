#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# How close aooct-dispersion's (aooctdisp estimate=true's) a2 and a3 come
# to a known dispersion mismatch, over many seeds and settings (issue 33,
# item 21): the synthetic camera (aooctsrc) with dispersion-a2/a3 set
# writes one B-scan per seed, aooct-dispersion estimates them with the
# same calibration, and the errors are tabulated per setting (phantom,
# wavelength direction, mismatch) and over all.  After a build, from the
# repository root:
#
#   GST_PLUGIN_PATH_1_0=BUILD/gst scripts/measure/dispersion-accuracy.sh BUILD [SEEDS] [OUT.tsv]
#
# SEEDS (default 20) seeds 1..SEEDS per setting.  Every estimate goes to
# OUT.tsv (default: a temporary file), the summary to stdout as a Markdown
# table: per setting the largest and the 90th-percentile |error| of a2
# and a3 (radians over the measured samples), over all the same.
# docs/notes/dispersion-accuracy.md has the figures.
set -euo pipefail
build=${1:?usage: $0 BUILD [SEEDS] [OUT.tsv]}
seeds=${2:-20}
tool=$build/tools/aooct-dispersion
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
rows=${3:-$dir/rows.tsv}
inc="785,0.125,1e-05,-2e-09"    # aooctsrc's default: wavelength increasing
dec="895,-0.13"                 # decreasing along the pixels
printf 'phantom\tcalibration\ta2\ta3\tseed\test_a2\test_a3\n' >"$rows"
for phantom in retina mirror; do
  for cal in inc dec; do
    coeffs=${!cal}
    for truth in "8 -2" "-20 6" "35 0" "-15 -4" "0 0" "20 10"; do
      set -- $truth
      for seed in $(seq 1 "$seeds"); do
        gst-launch-1.0 -q aooctsrc num-buffers=1 seed="$seed" phantom="$phantom" \
          wavelength-coeffs="$coeffs" dispersion-a2="$1" dispersion-a3="$2" \
          ! filesink location="$dir/x.raw"
        est=$("$tool" -n 832 -m 240 -c "$coeffs" "$dir/x.raw" 2>/dev/null)
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$phantom" "$cal" "$1" "$2" "$seed" \
          "$(echo "$est" | sed 's/.*a2=\([^ ]*\).*/\1/')" \
          "$(echo "$est" | sed 's/.*a3=\([^ ]*\).*/\1/')" >>"$rows"
      done
    done
  done
done
# per setting and over all: max and 90th percentile of |error|
summary() {   # FILTER-AWK-CONDITION LABEL
  awk -F'\t' -v label="$2" "BEGIN { n = 0 } NR > 1 && ($1)"' {
      e2 = $6 - $3; e3 = $7 - $4; if (e2 < 0) e2 = -e2; if (e3 < 0) e3 = -e3
      a[n] = e2; b[n] = e3; n++ }
    function pct(v, n, q,   i, j, t) {
      for (i = 1; i < n; i++) { t = v[i]; for (j = i - 1; j >= 0 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
      return v[int(q * (n - 1) + 0.5)] }
    END { m2 = pct(a, n, 1); m3 = pct(b, n, 1); p2 = pct(a, n, 0.9); p3 = pct(b, n, 0.9)
      printf "| %s | %d | %.2f | %.2f | %.2f | %.2f |\n", label, n, p2, m2, p3, m3 }' "$rows"
}
echo "| setting | runs | a2 90 % | a2 max | a3 90 % | a3 max |"
echo "|---|---|---|---|---|---|"
for phantom in retina mirror; do
  for cal in inc dec; do
    for truth in "8 -2" "-20 6" "35 0" "-15 -4" "0 0" "20 10"; do
      set -- $truth
      summary "\$1 == \"$phantom\" && \$2 == \"$cal\" && \$3 == $1 && \$4 == $2" \
        "$phantom, $cal, ($1, $2)"
    done
  done
  summary "\$1 == \"$phantom\"" "$phantom, all"
done
summary "1" "all"
