#!/usr/bin/env bash
# Installs what aooct needs on Debian 12 (only what is missing), then
# configures and builds it in ./build.  Sourced or run by pipelines/demo.sh
# and scripts/test.sh; safe to run again (it does nothing that is done).
#
#   AOOCT_BUILD   build folder (default: build)
#   AOOCT_MESON_ARGS  extra `meson setup` arguments (e.g. -Dcuda=disabled)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${AOOCT_BUILD:-$root/build}
meson_version=1.12.1

log() { printf 'aooct: %s\n' "$*" >&2; }

# --- Debian packages --------------------------------------------------------
pkgs=(
  build-essential pkg-config ninja-build python3 python3-venv
  libglib2.0-dev libfftw3-dev
  # aooct-stack --tiff (volumes as multi-page TIFF) and its test
  libtiff-dev
  # aooctfft's NUDFT on the CPU (cblas_cgemm; optional in meson)
  libopenblas-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly
  # FFV1 (lossless recording) and the H.264/FFV1 decoders the tests use
  gstreamer1.0-libav
  # aravissrc (GigE Vision / USB3 Vision cameras) and Aravis's fake camera
  libaravis-0.8-0 aravis-tools
  # the camera test's private network namespace
  iproute2 util-linux
  # examples/aooct_embed.py (the chain from Python, B-scans as NumPy arrays)
  python3-gi python3-numpy gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
  # robustness checks (docs/robustness.md): libFuzzer (clang and its
  # runtime) for scripts/fuzz.sh, valgrind for scripts/check-valgrind.sh
  clang libclang-rt-14-dev valgrind
  # aooct-view (GTK 3 and GStreamer's gtksink/gtkglsink; gtkglsink needs
  # the GL plugin and, under Xvfb, Mesa's software GL) and its test's X
  # server (Xvfb, xauth for xvfb-run)
  libgtk-3-dev gstreamer1.0-gtk3 gstreamer1.0-gl libgl1-mesa-dri xvfb xauth
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# --- Meson (Debian 12 ships 1.0; we need >= 1.3 for nvcc 13) ----------------
meson_ok() { "$1" --version 2>/dev/null | awk -F. '{exit !($1 > 1 || ($1 == 1 && $2 >= 3))}'; }
MESON=
if command -v meson >/dev/null && meson_ok meson; then
  MESON=$(command -v meson)
elif [ -x "$root/.venv/bin/meson" ] && meson_ok "$root/.venv/bin/meson"; then
  MESON=$root/.venv/bin/meson
else
  log "installing meson $meson_version into $root/.venv"
  python3 -m venv "$root/.venv"
  "$root/.venv/bin/pip" install -q "meson==$meson_version"
  MESON=$root/.venv/bin/meson
fi
export MESON

# gst-indent (GStreamer's C style checker, PyPI) for the style test
if ! command -v gst-indent-1.0 >/dev/null && [ ! -x "$root/.venv/bin/gst-indent-1.0" ]; then
  log "installing gst-indent into $root/.venv"
  [ -x "$root/.venv/bin/pip" ] || python3 -m venv "$root/.venv"
  "$root/.venv/bin/pip" install -q gst-indent || log "gst-indent not installed: style test skipped"
fi

# --- CUDA toolkit (optional: without it only the CPU path is built) ---------
if [ -x /usr/local/cuda/bin/nvcc ]; then
  case ":$PATH:" in *:/usr/local/cuda/bin:*) ;; *) export PATH="$PATH:/usr/local/cuda/bin";; esac
fi

# --- configure and build ----------------------------------------------------
if [ ! -f "$build/build.ninja" ]; then
  log "configuring $build"
  # shellcheck disable=SC2086
  "$MESON" setup "$build" "$root" ${AOOCT_MESON_ARGS:-} >/dev/null
fi
log "building in $build"
"$MESON" compile -C "$build" >/dev/null
export AOOCT_BUILD=$build
export GST_PLUGIN_PATH_1_0="$build/gst${GST_PLUGIN_PATH_1_0:+:$GST_PLUGIN_PATH_1_0}"
