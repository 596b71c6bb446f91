#!/usr/bin/env bash
# Installs what aooct needs on Debian 12, Debian 13 or Ubuntu 24.04 (only
# what is missing; elsewhere it names what is missing), then
# configures and builds it in ./build.  Sourced or run by pipelines/demo.sh
# and scripts/test.sh; safe to run again (it does nothing that is done).
#
#   AOOCT_BUILD   build folder (default: build)
#   AOOCT_MESON_ARGS  extra `meson setup` arguments (e.g. -Dcuda=disabled)
#   AOOCT_NO_RAY=1    do not install ray (tools/aooct-batch) into .venv
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${AOOCT_BUILD:-$root/build}
meson_version=1.12.1
ray_version=2.60.0

log() { printf 'aooct: %s\n' "$*" >&2; }

# --- system packages ----------------------------------------------------------
# Supported: Debian 12 (GStreamer 1.22), Debian 13 (1.26), Ubuntu 24.04
# (1.24), told apart by /etc/os-release (AOOCT_OS_ID / AOOCT_OS_VERSION
# override it).  One list for all three: where a package is named
# differently, an entry "a|b" takes the first name the system has (or the
# one installed); what differs by release is in `by_release` below.
# Anywhere else nothing is installed: the script checks what the build
# needs and names what is missing before anything is built.
# AOOCT_PRINT_PACKAGES=1: print the list for this system and stop.
pkgs=(
  build-essential pkg-config ninja-build python3 python3-venv
  libglib2.0-dev libfftw3-dev
  # aooct-stack --tiff (volumes as multi-page TIFF) and its test
  libtiff-dev
  # aooct-stack --hdf5 (volumes as HDF5; optional in meson) and h5dump for
  # its test (which pip-installs h5py into a venv of its own)
  libhdf5-dev hdf5-tools
  # aooctfft's NUDFT on the CPU (cblas_cgemm; optional in meson)
  libopenblas-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly
  # FFV1 (lossless recording) and the H.264/FFV1 decoders the tests use
  gstreamer1.0-libav
  # aravissrc (GigE Vision / USB3 Vision cameras) and Aravis's fake camera
  'libaravis-0.8-0|libaravis-0.8-0t64' aravis-tools
  # the camera test's private network namespace
  iproute2 util-linux
  # examples/aooct_embed.py (the chain from Python, B-scans as NumPy arrays)
  python3-gi python3-numpy gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
  # robustness checks (docs/robustness.md): libFuzzer (clang and its
  # runtime, by_release) for scripts/checks/fuzz.sh, valgrind for
  # scripts/checks/check-valgrind.sh
  clang valgrind
  # aooct-view (GTK 3 and GStreamer's gtksink/gtkglsink; gtkglsink needs
  # the GL plugin and, under Xvfb, Mesa's software GL) and its test's X
  # server (Xvfb, xauth for xvfb-run)
  libgtk-3-dev gstreamer1.0-gtk3 gstreamer1.0-gl libgl1-mesa-dri xvfb xauth
)
os_id=${AOOCT_OS_ID:-$( (. /etc/os-release 2>/dev/null && echo "${ID:-}") || true)}
os_version=${AOOCT_OS_VERSION:-$( (. /etc/os-release 2>/dev/null && echo "${VERSION_ID:-}") || true)}
os_name=$( (. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}") || true)
[ -n "$os_name" ] && [ -z "${AOOCT_OS_ID:-}" ] || os_name="${os_id:-an unknown system} ${os_version}"
# the releases' default clang, whose libFuzzer runtime is a versioned package
case "$os_id $os_version" in
  "debian 12") by_release=(libclang-rt-14-dev) ;;
  "debian 13") by_release=(libclang-rt-19-dev) ;;
  "ubuntu 24.04") by_release=(libclang-rt-18-dev) ;;
  *) by_release=() os_supported=no ;;
esac
pkgs+=("${by_release[@]}")

if [ -n "${AOOCT_PRINT_PACKAGES:-}" ]; then
  [ "${os_supported:-yes}" = yes ] || { log "no package list for $os_name"; return 1 2>/dev/null || exit 1; }
  printf '%s\n' "${pkgs[@]}"
  return 0 2>/dev/null || exit 0
fi

if [ "${os_supported:-yes}" = no ] || ! command -v dpkg-query >/dev/null ||
    ! command -v apt-get >/dev/null; then
  # Not a system whose package names we know: install nothing, but check
  # what the build needs, so that a missing piece is named now rather than
  # by a failure half way through the build.
  need_missing=()
  for c in cc pkg-config ninja python3 gst-launch-1.0 gst-inspect-1.0; do
    command -v "$c" >/dev/null || need_missing+=("the command $c")
  done
  if command -v pkg-config >/dev/null; then
    for m in 'glib-2.0 >= 2.62' 'gstreamer-1.0 >= 1.22' gstreamer-base-1.0 \
        gstreamer-video-1.0 gstreamer-app-1.0 gstreamer-check-1.0 fftw3f; do
      pkg-config --exists "$m" 2>/dev/null || need_missing+=("pkg-config module $m (development files)")
    done
  fi
  if [ ${#need_missing[@]} -gt 0 ]; then
    log "aooct installs its dependencies itself on Debian 12, Debian 13 and Ubuntu 24.04 only; this is $os_name."
    log "Install these yourself (names differ between systems), then run this again:"
    for m in "${need_missing[@]}"; do log "  - $m"; done
    log "Also wanted at run time: GStreamer's plugins-base, -good, -bad, -ugly and libav"
    log "plugins (tests and pipelines/ use them), and for CUDA the CUDA toolkit in"
    log "/usr/local/cuda with the gstreamer-cuda-1.0 development files (plugins-bad)."
    return 1 2>/dev/null || exit 1
  fi
  log "$os_name: not a system aooct installs packages on; the build's own needs are present, going on (GStreamer plugins, clang/libFuzzer and valgrind are not checked)"
else
  # an entry counts as present when any of its names is installed
  installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
  missing=()
  for entry in "${pkgs[@]}"; do
    have=no
    IFS='|' read -r -a names <<<"$entry"
    for n in "${names[@]}"; do installed "$n" && { have=yes; break; }; done
    [ $have = yes ] || missing+=("$entry")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    SUDO=
    if [ "$(id -u)" != 0 ]; then
      command -v sudo >/dev/null || {
        log "missing packages (${missing[*]}), and not root and no sudo to install them"
        return 1 2>/dev/null || exit 1
      }
      SUDO=sudo
    fi
    $SUDO apt-get update -qq
    # the first name of each entry that this system's apt sources have;
    # all of them checked before anything is installed
    to_install=() unavailable=()
    for entry in "${missing[@]}"; do
      pick=
      IFS='|' read -r -a names <<<"$entry"
      for n in "${names[@]}"; do
        c=$(apt-cache policy "$n" 2>/dev/null | awk '/Candidate:/ {print $2}')
        if [ -n "$c" ] && [ "$c" != "(none)" ]; then pick=$n; break; fi
      done
      if [ -n "$pick" ]; then to_install+=("$pick"); else unavailable+=("${entry//|/ or }"); fi
    done
    if [ ${#unavailable[@]} -gt 0 ]; then
      log "$os_name: not in this system's apt sources: ${unavailable[*]}"
      [ "$os_id" != ubuntu ] ||
        log "(on Ubuntu several are in the 'universe' component: sudo add-apt-repository universe)"
      log "nothing was installed; add the sources (or install them yourself) and run this again"
      return 1 2>/dev/null || exit 1
    fi
    log "installing on $os_name: ${to_install[*]}"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
      "${to_install[@]}" >/dev/null
  fi
fi

# AOOCT_PACKAGES_ONLY=1: stop after the packages (.ci/debian13 prepares
# its cached root with it)
if [ -n "${AOOCT_PACKAGES_ONLY:-}" ]; then return 0 2>/dev/null || exit 0; fi

# --- the project's Python environment, .venv ----------------------------------
# Made from the system's Python with its site packages, so that it has
# Debian's python3-gi (GStreamer from Python) and python3-numpy; meson,
# gst-indent and ray go into it.  One made otherwise (from a pyenv
# python3, or by an older bootstrap) has no gi: it is made again.
sys_python=/usr/bin/python3
[ -x $sys_python ] || sys_python=$(command -v python3 || echo python3)
if ! "$root/.venv/bin/python" -c 'import gi' 2>/dev/null; then
  if "$sys_python" -c 'import gi' 2>/dev/null; then
    [ ! -e "$root/.venv" ] || log "making $root/.venv again from $sys_python (it has no gi)"
    rm -rf "$root/.venv"
    "$sys_python" -m venv --system-site-packages "$root/.venv" ||
      { log "cannot make $root/.venv with $sys_python -m venv"; return 1 2>/dev/null || exit 1; }
  elif [ ! -x "$root/.venv/bin/python" ]; then
    "$sys_python" -m venv "$root/.venv" ||
      { log "cannot make $root/.venv with $sys_python -m venv"; return 1 2>/dev/null || exit 1; }
  fi
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
  # (checked: a sourcing script's `|| exit` turns set -e off)
  if ! "$root/.venv/bin/pip" install -q "meson==$meson_version"; then
    log "cannot install meson $meson_version from PyPI into $root/.venv; aooct needs"
    log "meson >= 1.3: install one (pip install meson) and put it on PATH"
    return 1 2>/dev/null || exit 1
  fi
  MESON=$root/.venv/bin/meson
fi
export MESON

# gst-indent (GStreamer's C style checker, PyPI) for the style test
if ! command -v gst-indent-1.0 >/dev/null && [ ! -x "$root/.venv/bin/gst-indent-1.0" ]; then
  log "installing gst-indent into $root/.venv"
  "$root/.venv/bin/pip" install -q gst-indent || log "gst-indent not installed: style test skipped"
fi

# ray (PyPI) for tools/aooct-batch: a large wheel, installed once, with
# its client (ray[client]: grpcio), which `--address ray://HOST:PORT` needs;
# AOOCT_NO_RAY=1 leaves it out (aooct-batch and its test then say so).  A
# .venv whose ray came without the client is told how to add it (not
# changed here: another checkout may share it).
if [ -z "${AOOCT_NO_RAY:-}" ] && ! "$root/.venv/bin/python" -c 'import ray' 2>/dev/null; then
  log "installing ray[client] $ray_version into $root/.venv (tools/aooct-batch)"
  "$root/.venv/bin/pip" install -q "ray[client]==$ray_version" ||
    log "ray not installed: tools/aooct-batch and its test (aooct-batch) are unavailable"
elif [ -z "${AOOCT_NO_RAY:-}" ] && ! "$root/.venv/bin/python" -c 'import grpc' 2>/dev/null; then
  log "$root/.venv has ray without its client: aooct-batch --address ray://... needs" \
    "$root/.venv/bin/pip install 'ray[client]==$ray_version' (a local Ray and --address auto work)"
fi

# --- CUDA toolkit (optional: without it only the CPU path is built) ---------
if [ -x /usr/local/cuda/bin/nvcc ]; then
  case ":$PATH:" in *:/usr/local/cuda/bin:*) ;; *) export PATH="$PATH:/usr/local/cuda/bin";; esac
fi

# --- configure and build ----------------------------------------------------
if [ ! -f "$build/build.ninja" ]; then
  log "configuring $build"
  # shellcheck disable=SC2086
  "$MESON" setup "$build" "$root" ${AOOCT_MESON_ARGS:-} >/dev/null ||
    { log "meson setup failed (see its messages above)"; return 1 2>/dev/null || exit 1; }
fi
log "building in $build"
"$MESON" compile -C "$build" >/dev/null ||
  { log "the build failed (see the compiler's messages above)"; return 1 2>/dev/null || exit 1; }
export AOOCT_BUILD=$build
export GST_PLUGIN_PATH_1_0="$build/gst${GST_PLUGIN_PATH_1_0:+:$GST_PLUGIN_PATH_1_0}"
