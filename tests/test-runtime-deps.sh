#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/runtime-deps.sh, which pipelines/*.sh source (issue 19, item
# 17): it installs only missing runtime packages (never compilers, Meson,
# valgrind), finds the plugin in the build folder, and fails with a way
# out when there is none; and no pipeline script but the demo runs the
# development bootstrap.  dpkg-query, apt-get and sudo are stubs here:
# nothing is installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
# installed: everything except what STUB_MISSING lists
cat >"$tmp/bin/dpkg-query" <<'STUB'
#!/bin/sh
for a; do pkg=$a; done
case " ${STUB_MISSING:-} " in *" $pkg "*) exit 1 ;; esac
printf 'install ok installed'
STUB
printf '#!/bin/sh\necho "$@" >>"$STUB_LOG"\n' >"$tmp/bin/apt-get"
printf '#!/bin/sh\nexec "$@"\n' >"$tmp/bin/sudo"
chmod +x "$tmp/bin/"*
export PATH="$tmp/bin:$PATH" STUB_LOG="$tmp/apt.log"
unset AOOCT_SKIP_BOOTSTRAP
# a registry of our own: the suite's knows the plugin from the build
export GST_REGISTRY_1_0="$tmp/registry.bin"

run() { # run SCRIPT_TEXT: a script that sources runtime-deps.sh
  bash -c "$1" >"$tmp/out" 2>&1
}

# nothing missing: no apt-get at all; the plugin found in the build
: >"$STUB_LOG"
GST_PLUGIN_PATH_1_0= run "source '$root/scripts/runtime-deps.sh'; gst-inspect-1.0 aooctdcsub >/dev/null && echo found" ||
  { cat "$tmp/out"; echo "runtime-deps.sh failed"; exit 1; }
grep -q found "$tmp/out" || { cat "$tmp/out"; echo "plugin not found in the build"; exit 1; }
[ ! -s "$STUB_LOG" ] || { cat "$STUB_LOG"; echo "apt-get run with nothing missing"; exit 1; }

# missing runtime packages: exactly those, and no build tools
: >"$STUB_LOG"
STUB_MISSING="gstreamer1.0-libav libfftw3-single3" GST_PLUGIN_PATH_1_0= \
  run "source '$root/scripts/runtime-deps.sh' gstreamer1.0-libav" ||
  { cat "$tmp/out"; exit 1; }
grep -q 'install .*libfftw3-single3 gstreamer1.0-libav' "$STUB_LOG" ||
  { cat "$STUB_LOG"; echo "missing packages not installed"; exit 1; }
if grep -Eq 'build-essential|meson|ninja|clang|valgrind|-dev( |$)' "$STUB_LOG"; then
  cat "$STUB_LOG"; echo "build tools installed to run a pipeline"; exit 1
fi

# no plugin anywhere: fails, saying how to get one
rc=0
AOOCT_BUILD="$tmp/nobuild" GST_PLUGIN_PATH_1_0= GST_PLUGIN_PATH= \
  run "source '$root/scripts/runtime-deps.sh'; echo went-on" || rc=$?
[ $rc -ne 0 ] && grep -q 'scripts/bootstrap.sh' "$tmp/out" && ! grep -q went-on "$tmp/out" ||
  { cat "$tmp/out"; echo "no plugin: expected a failure naming scripts/bootstrap.sh"; exit 1; }

# the pipeline scripts use it; only the demo bootstraps
for f in "$root"/pipelines/*.sh; do
  case $(basename "$f") in
    demo.sh) grep -q 'scripts/bootstrap.sh' "$f" || { echo "demo.sh does not bootstrap"; exit 1; } ;;
    *) grep -q 'source "$root/scripts/runtime-deps.sh"' "$f" && ! grep -q 'scripts/bootstrap.sh"' "$f" ||
         { echo "$f: must source scripts/runtime-deps.sh, not bootstrap.sh"; exit 1; } ;;
  esac
done
echo "runtime-deps: only missing runtime packages, plugin from the build, clear failure without one"
