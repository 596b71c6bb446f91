#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What running a pipeline needs, and nothing to build with (sourced by
# pipelines/*.sh; pipelines/demo.sh and scripts/test.sh build, through
# scripts/bootstrap.sh):
#   1. the runtime Debian packages -- GStreamer's tools and plugins, the
#      libraries the aooct plugin links -- plus the ones the calling script
#      names in the array aooct_extra_packages; only those missing are
#      installed;
#   2. the aooct plugin: already on GST_PLUGIN_PATH(_1_0) or installed, or
#      built in ./build (put on GST_PLUGIN_PATH_1_0); when there is none,
#      it says how to get one and fails.  It never installs compilers or
#      builds.
#
#   aooct_extra_packages=(PACKAGE...)    # optional
#   source scripts/setup/runtime-deps.sh
# Never arguments: `source FILE` without any hands FILE the caller's own
# positional parameters (a pipeline script's OUTDIR would become a package
# to install), so this file reads none of "$@" (issue 33, item 1).
#   AOOCT_SKIP_BOOTSTRAP=1   do neither (use what is on GST_PLUGIN_PATH)
#   AOOCT_BUILD              the build folder to look in (default: build)
set -euo pipefail

if [ -z "${AOOCT_SKIP_BOOTSTRAP:-}" ]; then
  aooct_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  aooct_log() { printf 'aooct: %s\n' "$*" >&2; }

  # --- runtime packages (the same names on Debian 12, Debian 13 and
  # Ubuntu 24.04; elsewhere nothing is installed, see below) ----------------
  aooct_pkgs=(
    gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
    # the libraries the plugin links: FFTW3 (float), OpenMP, libgstcuda
    libfftw3-single3 libgomp1 libgstreamer-plugins-bad1.0-0
    ${aooct_extra_packages[@]+"${aooct_extra_packages[@]}"}
  )
  aooct_missing=()
  if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
    # not a Debian-family system: install nothing; name what is missing
    command -v gst-launch-1.0 >/dev/null || {
      aooct_log "gst-launch-1.0 is missing: install GStreamer's tools and its base and"
      aooct_log "good plugins (the runtime of ${aooct_pkgs[*]} on Debian), then run this again"
      exit 1
    }
    aooct_pkgs=()
  fi
  for p in "${aooct_pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      aooct_missing+=("$p")
  done
  if [ ${#aooct_missing[@]} -gt 0 ]; then
    aooct_log "installing ${aooct_missing[*]}"
    aooct_sudo=; [ "$(id -u)" = 0 ] || aooct_sudo=sudo
    $aooct_sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $aooct_sudo apt-get install -y -qq \
      --no-install-recommends "${aooct_missing[@]}" >/dev/null
  fi

  # --- the aooct plugin ---------------------------------------------------
  if ! gst-inspect-1.0 aooctdcsub >/dev/null 2>&1; then
    aooct_build=${AOOCT_BUILD:-$aooct_root/build}
    if [ -f "$aooct_build/gst/libgstaooct.so" ]; then
      export AOOCT_BUILD=$aooct_build
      export GST_PLUGIN_PATH_1_0="$aooct_build/gst${GST_PLUGIN_PATH_1_0:+:$GST_PLUGIN_PATH_1_0}"
    else
      aooct_log "the aooct plugin is neither installed nor built in $aooct_build:"
      aooct_log "  build it once with scripts/bootstrap.sh (installs the build tools),"
      aooct_log "  or install a build with 'meson install -C BUILDDIR'"
      exit 1
    fi
  fi
fi
