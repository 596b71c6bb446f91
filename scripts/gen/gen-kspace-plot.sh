#!/usr/bin/env bash
# Makes docs/img/kspace-psf.png: the swept-mirror PSF of every aooctkmap
# interpolation mode (tests/elements/test-kspace.c, test_swept_mirror: N = 1024, no
# aooctpad, a strongly non-linear calibration), at 450 um and 800 um.
# Needs a build (BUILD, default ./build) and gnuplot (Debian: gnuplot-nox).
#
#   scripts/gen/gen-kspace-plot.sh [BUILD]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
command -v gnuplot >/dev/null || { echo "gnuplot is not installed" >&2; exit 1; }
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
GST_PLUGIN_PATH_1_0="$build/gst" AOOCT_KSPACE_PSF_DIR="$dir" CK_FORK=no \
  "$build/tests/test-kspace" cpu > "$dir/log.txt" 2>&1 || {
  tail -20 "$dir/log.txt" >&2; exit 1; }
plot() {  # depth, title
  local d=$1 first=1 m
  echo "set title '$2'"
  printf 'plot '
  for m in linear cubic bspline lanczos nudft nufft; do
    [ $first = 1 ] || printf ', '
    first=0
    printf "'%s/psf-%s-%s.txt' using 1:(\$2-m_%s) with lines lw %s title '%s'" \
      "$dir" "$m" "$d" "${d}" "$([ $m = nufft ] && echo 1 || echo 2)" "$m"
  done
  echo
}
{
  echo "set terminal pngcairo size 1100,800 font 'sans,10'"
  echo "set output '$root/docs/img/kspace-psf.png'"
  echo "set multiplot layout 2,1"
  for d in 450 800; do
    # every curve relative to NUDFT's peak at that depth (shows roll-off)
    echo "stats '$dir/psf-nudft-$d.txt' using 2 nooutput name 's$d'"
    echo "m_$d = s${d}_max"
  done
  echo "set xlabel 'depth bin (2.1 um per bin)'"
  echo "set ylabel 'dB relative to the NUDFT peak'"
  echo "set yrange [-80:3]"
  echo "set grid"
  echo "set key right top" 
  echo "set xrange [100:260]"
  plot 450 "mirror at 450 um, N = 1024 without aooctpad, non-linear calibration"
  echo "set xrange [300:460]"
  plot 800 "mirror at 800 um (near the depth this sampling supports)"
  echo "unset multiplot"
} > "$dir/plot.gp"
gnuplot "$dir/plot.gp"
grep -A8 "^| mode" "$dir/log.txt"
ls -l "$root/docs/img/kspace-psf.png"
