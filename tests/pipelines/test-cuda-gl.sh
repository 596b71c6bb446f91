#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The views' RGBA in CUDA memory handed to OpenGL without a trip through
# system memory: aooctenface / aooctrender / aooctnorm backend=cuda !
# video/x-raw(memory:CUDAMemory),format=RGBA ! cudadownload !
# video/x-raw(memory:GLMemory) ! gldownload, the GL frames read back and
# compared byte for byte with the same frames downloaded to system memory
# (cudadownload to video/x-raw); then the
# same into glimagesink.  Skipped (77) without CUDA (cudadownload) or GL.
# On a headless GPU host set the EGL device window first
# (GST_GL_PLATFORM=egl GST_GL_WINDOW=egl-device and NVIDIA's EGL vendor
# file, as scripts/gpu-run.sh does).
set -uo pipefail
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
# no display: GL on the EGL device (an X11 window would hang there)
if [ -z "${GST_GL_WINDOW:-}" ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  export GST_GL_PLATFORM=egl GST_GL_WINDOW=egl-device
  nv=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
  [ -f "$nv" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-$nv}
fi
for e in cudadownload gldownload; do
  gst-inspect-1.0 "$e" >/dev/null 2>&1 || { echo "SKIP: no $e (needs a CUDA device and GStreamer's GL)"; exit 77; }
done
chain="aooctsrc num-buffers=8 samples=512 alines=64 seed=9 wavelength-coeffs=785,0.2 \
  ! aooctdcsub backend=cuda ! aooctkmap wavelength-coeffs=785,0.2 backend=cuda \
  ! aooctdisp backend=cuda ! aooctfft backend=cuda"
fail=0
for view in "aooctenface bscans-per-volume=4" "aooctrender bscans-per-volume=4 azimuth=30 elevation=20" "aooctnorm"; do
  name=${view%% *}
  # shellcheck disable=SC2086
  # the same CUDA frames downloaded to system memory (that RGBA in CUDA
  # memory equals the grey image is tests/elements/test-views.c's test_rgba)
  gst-launch-1.0 -q $chain ! $view backend=cuda \
    ! 'video/x-raw(memory:CUDAMemory),format=RGBA' ! cudadownload \
    ! 'video/x-raw,format=RGBA' ! filesink location="$out/sys.rgba" >"$out/log" 2>&1 \
    || { cat "$out/log"; exit 1; }
  # shellcheck disable=SC2086
  if ! GST_DEBUG=cudamemorycopy:6,cudadownload:6 timeout 120 gst-launch-1.0 $chain \
      ! $view backend=cuda ! 'video/x-raw(memory:CUDAMemory),format=RGBA' \
      ! cudadownload ! 'video/x-raw(memory:GLMemory),format=RGBA' ! gldownload \
      ! 'video/x-raw,format=RGBA' ! filesink location="$out/gl.rgba" >"$out/gllog" 2>&1; then
    grep -E 'ERROR|not-negotiated|error' "$out/gllog" | head -5
    echo "$name: CUDA -> GL pipeline failed"
    if grep -q 'not-negotiated\|Could not initialize\|display' "$out/gllog"; then
      echo "SKIP: GL not usable here (no EGL device?)"; exit 77
    fi
    exit 1
  fi
  if grep -qi 'gl pool\|GLMemory' "$out/gllog"; then
    echo "$name: cudadownload made GL memory ($(grep -ci 'gl' "$out/gllog") GL log lines)"
  fi
  if cmp -s "$out/sys.rgba" "$out/gl.rgba"; then
    echo "$name: RGBA through CUDA -> GL identical to system memory ($(stat -c %s "$out/gl.rgba") bytes)"
  else
    echo "$name: RGBA through GL differs from system memory"; fail=1
  fi
done
# the window itself (egl-device: off screen)
# shellcheck disable=SC2086
if timeout 60 gst-launch-1.0 -q $chain ! aooctrender bscans-per-volume=4 backend=cuda \
    ! 'video/x-raw(memory:CUDAMemory),format=RGBA' ! cudadownload ! glimagesink sync=false \
    >"$out/sinklog" 2>&1; then
  echo "glimagesink: ran to EOS"
else
  echo "glimagesink: failed (not counted):"; head -5 "$out/sinklog"
fi
exit $fail
