#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the elements compute, as a list of checksums: the chain tests'
# phantoms and every other mode (k-space methods with and without aooctpad,
# full range, rolling DC, averaging and bilateral, the views, a manual
# range), through gst-launch-1.0 with fixed seeds, one md5 per output.
# Two plugins that list the same lines compute the same bytes (issue 11's
# "nothing changed"; scripts/gpu/gpu-compare.sh runs it on both backends).
#
#   scripts/checks/dump-outputs.sh PLUGIN_DIR cpu|cuda > LIST
plug=${1:?usage: dump-outputs.sh PLUGIN_DIR cpu|cuda}; be=${2:?backend}
export GST_PLUGIN_PATH_1_0=$plug
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# a registry of this run's own (unless the caller gives one): one shared
# cache may hand the plugin of another build in PLUGIN_DIR's place
export GST_REGISTRY_1_0=${GST_REGISTRY_1_0:-$tmp/registry.bin}
cal=$tmp/cal.txt
C="785,0.125,1e-05,-2e-09"
A2=12.5; A3=-3
b="backend=$be"
run() { # name, launch tail after the source
  local name=$1; shift
  if gst-launch-1.0 -q $* ! filesink location=$tmp/$name.bin >$tmp/$name.log 2>&1; then
    echo "$(md5sum < $tmp/$name.bin | cut -c1-32) $(stat -c %s $tmp/$name.bin) $name"
  else
    echo "FAILED $name: $(tail -2 $tmp/$name.log | tr '\n' ' ')"
  fi
}
chain() { # name n m bscans frames phantom padargs kmapfile disp window log dr fmt
  local name=$1 n=$2 m=$3 bs=$4 fr=$5 ph=$6 pad=$7 kf=$8 disp=$9 win=${10} log=${11} dr=${12} fmt=${13}
  local kmap="aooctkmap $b wavelength-coeffs=$C"
  [ "$kf" = 1 ] && kmap="aooctkmap $b wavelength-file=$cal"
  local d="a2=0 a3=0"; [ "$disp" = 1 ] && d="a2=$A2 a3=$A3"
  run $name aooctsrc samples=$n alines=$((m*bs)) seed=42 phantom=$ph num-buffers=$fr calibration-file=$cal \
    ! aooctdcsub $b alines-per-bscan=$m ! $pad $kmap ! aooctdisp $b $d ! aooctfft $b window=$win \
    ! aooctnorm $b log=$log dynamic-range=$dr ! video/x-raw,format=$fmt
}
P="aooctpad $b size=2048 factor=2 !"
chain thesis-log 832 240 1 3 retina "$P" 0 1 none true 60 GRAY8
chain thesis-linear 832 240 1 2 retina "$P" 1 1 none false 60 GRAY8
chain odd-width-hann 1500 64 1 2 retina "aooctpad $b factor=2 !" 1 1 hann true 50 GRAY8
chain nopad-linear-tukey 1024 96 1 2 mirror "" 0 1 "tukey window-parameter=0.3" false 60 GRAY8
chain stacked-bscans 832 40 3 2 retina "aooctpad $b factor=4 !" 0 1 gaussian true 60 GRAY8
chain gray16-log 832 120 1 2 retina "$P" 1 0 blackman true 60 GRAY16_LE
chain kaiser-log 832 120 1 2 retina "$P" 1 0 kaiser true 60 GRAY8
chain 2048x1000-log 2048 1000 1 1 retina "$P" 0 1 none true 60 GRAY8
for i in linear cubic bspline lanczos nudft nufft; do
  run kmap-$i aooctsrc samples=1024 alines=64 seed=5 num-buffers=2 ! aooctdcsub $b ! \
    aooctkmap $b interpolation=$i wavelength-coeffs=$C ! aooctdisp $b a2=$A2 a3=$A3 ! aooctfft $b window=hann ! aooctnorm $b ! video/x-raw,format=GRAY16_LE
  run kmap-pad-$i aooctsrc samples=832 alines=48 seed=6 num-buffers=2 ! aooctdcsub $b ! aooctpad $b ! \
    aooctkmap $b interpolation=$i wavelength-coeffs=$C ! aooctdisp $b ! aooctfft $b ! aooctnorm $b ! video/x-raw,format=GRAY8
done
run fullrange aooctsrc samples=1024 alines=128 seed=3 num-buffers=2 carrier=1.5 speckle-width=3 depth-offset=-200 ! \
  aooctdcsub $b ! aooctfullrange $b ! aooctpad $b ! aooctkmap $b wavelength-coeffs=$C ! aooctdisp $b a2=$A2 a3=$A3 ! aooctfft $b ! aooctnorm $b ! video/x-raw,format=GRAY8
run fullrange-nufft aooctsrc samples=1024 alines=128 seed=3 num-buffers=2 carrier=1.5 speckle-width=3 ! \
  aooctdcsub $b ! aooctfullrange $b sideband=lower ! aooctkmap $b interpolation=nufft wavelength-coeffs=$C ! aooctdisp $b ! aooctfft $b ! aooctnorm $b ! video/x-raw,format=GRAY8
run dcsub-rolling aooctsrc samples=832 alines=64 seed=8 num-buffers=4 ! aooctdcsub $b mode=rolling-mean rolling-bscans=3 skip-alines-start=4 skip-alines-end=2 ! \
  aooctpad $b ! aooctkmap $b wavelength-coeffs=$C ! aooctdisp $b ! aooctfft $b ! aooctnorm $b ! video/x-raw,format=GRAY8
run norm-extra aooctsrc samples=832 alines=64 seed=9 num-buffers=3 ! aooctdcsub $b ! aooctpad $b ! aooctkmap $b wavelength-coeffs=$C ! aooctdisp $b ! aooctfft $b ! \
  aooctnorm $b average-alines=2 bilateral-sigma-space=2 bilateral-sigma-range=0.1 ! video/x-raw,format=GRAY8
run norm-avg-bscans aooctsrc samples=832 alines=64 seed=9 num-buffers=4 ! aooctdcsub $b ! aooctpad $b ! aooctkmap $b wavelength-coeffs=$C ! aooctdisp $b ! aooctfft $b ! \
  aooctnorm $b average-bscans=2 ! video/x-raw,format=GRAY16_LE
run enface aooctsrc samples=832 alines=64 seed=10 num-buffers=8 bscans-per-volume=4 ! aooctdcsub $b ! aooctpad $b ! aooctkmap $b wavelength-coeffs=$C ! aooctdisp $b ! aooctfft $b ! \
  aooctenface $b bscans-per-volume=4 ! video/x-raw,format=GRAY8
run render-mip aooctsrc samples=832 alines=64 seed=11 num-buffers=4 bscans-per-volume=4 ! aooctdcsub $b ! aooctpad $b ! aooctkmap $b wavelength-coeffs=$C ! aooctdisp $b ! aooctfft $b ! \
  aooctrender $b bscans-per-volume=4 azimuth=30 elevation=20 ! video/x-raw,format=GRAY8
run render-composite aooctsrc samples=832 alines=64 seed=11 num-buffers=4 bscans-per-volume=4 ! aooctdcsub $b ! aooctpad $b ! aooctkmap $b wavelength-coeffs=$C ! aooctdisp $b ! aooctfft $b ! \
  aooctrender $b bscans-per-volume=4 mode=composite ! video/x-raw,format=GRAY8
run phasefile-none aooctsrc samples=832 alines=32 seed=12 num-buffers=2 calibration-file=$cal ! aooctdcsub $b ! aooctpad $b ! aooctkmap $b wavelength-file=$cal ! aooctdisp $b ! aooctfft $b window=kaiser window-parameter=6 ! \
  aooctnorm $b crop-start=10 crop-end=400 auto-range=false range-min=20 range-max=90 ! video/x-raw,format=GRAY8
# issue 32's restructuring: the elements the list above leaves out
# (aooctcs, the flow elements, aooctbin) and GRAY16 from the mirror
# phantom without aooctpad
F="aooctsrc samples=832 alines=64 seed=31 speckle-width=3 vessel-count=2 vessel-velocity=4 repeats=4 bscans-per-volume=2 num-buffers=16 ! aooctdcsub $b ! aooctpad $b ! aooctkmap $b wavelength-coeffs=$C ! aooctdisp $b ! aooctfft $b"
run doppler-gray8 $F ! aooctdoppler $b crop-start=100 crop-end=560 line-rate=24000 ! video/x-raw,format=GRAY8
run doppler-rgba $F ! aooctdoppler $b line-rate=24000 ! video/x-raw,format=RGBA
run angio $F ! aooctangio $b repeats=4 crop-start=100 crop-end=560 ! video/x-raw,format=GRAY16_LE
run angio-enface $F ! aooctangio $b repeats=4 ! aooctflowenface bscans-per-volume=2 crop-start=40 crop-end=140 ! video/x-raw,format=GRAY8
run cs aooctsrc samples=1024 alines=32 seed=7 num-buffers=2 wavelength-coeffs=800,0.078125,4.76837158203125e-06 ! aooctdcsub $b ! \
  aooctcs $b wavelength-coeffs=800,0.078125,4.76837158203125e-06 mask-fraction=0.5 a2=8 a3=-2 ! aooctnorm $b dynamic-range=50 ! video/x-raw,format=GRAY8
run bin aooctsrc samples=832 alines=64 seed=13 num-buffers=3 ! aooctbin backend=$be wavelength-coeffs=$C a2=8 a3=-2 dynamic-range=50 ! video/x-raw,format=GRAY8
run mirror-gray16 aooctsrc samples=1024 alines=64 seed=14 phantom=mirror num-buffers=2 ! aooctdcsub $b ! aooctkmap $b wavelength-coeffs=$C ! aooctdisp $b ! aooctfft $b ! \
  aooctnorm $b ! video/x-raw,format=GRAY16_LE
