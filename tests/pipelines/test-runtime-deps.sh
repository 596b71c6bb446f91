#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/setup/runtime-deps.sh, which pipelines/*.sh source (issue 19, item
# 17): it installs only missing runtime packages (never compilers, Meson,
# valgrind), finds the plugin in the build folder, and fails with a way
# out when there is none; and no pipeline script but the demo runs the
# development bootstrap.  dpkg-query, apt-get and sudo are stubs here:
# nothing is installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
# installed: everything except what STUB_MISSING lists
cat >"$tmp/bin/dpkg-query" <<'STUB'
#!/bin/sh
for a; do pkg=$a; done
[ -z "${STUB_QUERIES:-}" ] || echo "$pkg" >>"$STUB_QUERIES"
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
GST_PLUGIN_PATH_1_0= run "source '$root/scripts/setup/runtime-deps.sh'; gst-inspect-1.0 aooctdcsub >/dev/null && echo found" ||
  { cat "$tmp/out"; echo "runtime-deps.sh failed"; exit 1; }
grep -q found "$tmp/out" || { cat "$tmp/out"; echo "plugin not found in the build"; exit 1; }
[ ! -s "$STUB_LOG" ] || { cat "$STUB_LOG"; echo "apt-get run with nothing missing"; exit 1; }

# missing runtime packages: exactly those, and no build tools
: >"$STUB_LOG"
STUB_MISSING="gstreamer1.0-libav libfftw3-single3" GST_PLUGIN_PATH_1_0= \
  run "aooct_extra_packages=(gstreamer1.0-libav); source '$root/scripts/setup/runtime-deps.sh'" ||
  { cat "$tmp/out"; exit 1; }
grep -q 'install .*libfftw3-single3 gstreamer1.0-libav' "$STUB_LOG" ||
  { cat "$STUB_LOG"; echo "missing packages not installed"; exit 1; }
if grep -Eq 'build-essential|meson|ninja|clang|valgrind|-dev( |$)' "$STUB_LOG"; then
  cat "$STUB_LOG"; echo "build tools installed to run a pipeline"; exit 1
fi

# no plugin anywhere: fails, saying how to get one
rc=0
AOOCT_BUILD="$tmp/nobuild" GST_PLUGIN_PATH_1_0= GST_PLUGIN_PATH= \
  run "source '$root/scripts/setup/runtime-deps.sh'; echo went-on" || rc=$?
[ $rc -ne 0 ] && grep -q 'scripts/bootstrap.sh' "$tmp/out" && ! grep -q went-on "$tmp/out" ||
  { cat "$tmp/out"; echo "no plugin: expected a failure naming scripts/bootstrap.sh"; exit 1; }

# the pipeline scripts use it; only the demo bootstraps
for f in "$root"/pipelines/*.sh; do
  case $(basename "$f") in
    demo.sh) grep -q 'scripts/bootstrap.sh' "$f" || { echo "demo.sh does not bootstrap"; exit 1; } ;;
    *) grep -q 'source "$root/scripts/setup/runtime-deps.sh"' "$f" && ! grep -q 'scripts/bootstrap.sh"' "$f" ||
         { echo "$f: must source scripts/setup/runtime-deps.sh, not bootstrap.sh"; exit 1; } ;;
  esac
done
# Issue 33, item 1: `source FILE` without arguments hands FILE the
# caller's own arguments, so pipelines/fullrange.sh OUTDIR asked apt for a
# package named OUTDIR.  The class: a sourced file that reads "$@".  Each
# pipeline script is run as the README runs it (no AOOCT_SKIP_BOOTSTRAP)
# with two probe arguments; dpkg-query and apt-get record every name they
# are asked about, and no probe may be among them.  The scripts stop where
# the plugin is looked for (none anywhere; the demo's gst-launch-1.0 is a
# stub that fails), after every package was asked for.
printf '#!/bin/sh\nexit 3\n' >"$tmp/bin/gst-launch-1.0"
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/gst-inspect-1.0"
chmod +x "$tmp/bin/"*
probes=("$tmp/probe-outdir" probe-package)
export STUB_QUERIES="$tmp/queries"
leaked() { # leaked WHAT: fails when a probe reached dpkg-query or apt-get
  if grep -F -e probe-outdir -e probe-package "$STUB_LOG" "$STUB_QUERIES"; then
    echo "$1: its arguments reached the package manager (above)"; return 1
  fi
  [ -s "$STUB_QUERIES" ] || { echo "$1: asked dpkg-query nothing (test broken?)"; return 1; }
}
for f in "$root"/pipelines/*.sh; do
  : >"$STUB_LOG"; : >"$STUB_QUERIES"
  rc=0
  AOOCT_BUILD="$tmp/nobuild" GST_PLUGIN_PATH_1_0= GST_PLUGIN_PATH= \
    AOOCT_PACKAGES_ONLY=1 timeout 60 bash "$f" "${probes[@]}" >"$tmp/out" 2>&1 || rc=$?
  [ $rc -ne 124 ] || { cat "$tmp/out"; echo "$f: did not stop"; exit 1; }
  leaked "$f" || { cat "$tmp/out"; exit 1; }
done
rm -rf "${probes[0]}"

# ... and every file that a script of ours sources, sourced by hand from a
# shell that has arguments: none may take them for its own.  A sourced file
# not in this list fails here until it is added.
# (scripts/checks/tree-files.sh: git's list in a checkout, else the files of the
# tree: an unpacked release archive, `meson dist`)
tree_files() { "$root/scripts/checks/tree-files.sh" "$@"; }
sourced=$(tree_files pipelines scripts tests tools |
  while read -r f; do
    head -n1 "$root/$f" | grep -q '^#!.*sh' || case $f in *.sh) ;; *) continue ;; esac
    sed -n 's/^[[:space:]]*\(\[.*\] || \)\{0,1\}\(source\|\.\) "\{0,1\}\([^" ]*\).*/\3/p' "$root/$f"
  done | sed 's|^\$root/||' | sort -u)
for s in $sourced; do
  case $s in
    .gstkit/enter.sh | .gstkit-1.26/enter.sh) continue ;; # the GPU host's kits
    scripts/setup/runtime-deps.sh | scripts/bootstrap.sh | tests/util/aooct-test-png.sh) ;;
    *) echo "$s is sourced but not checked here for taking its caller's arguments"; exit 1 ;;
  esac
  : >"$STUB_LOG"; : >"$STUB_QUERIES"
  rc=0
  AOOCT_BUILD="$tmp/nobuild" AOOCT_PACKAGES_ONLY=1 GST_PLUGIN_PATH_1_0= GST_PLUGIN_PATH= \
    bash -c 'source "$0"; dpkg-query -W x-after' "$root/$s" "${probes[@]}" >"$tmp/out" 2>&1 || rc=$?
  leaked "$s" || { cat "$tmp/out"; exit 1; }
done
[ -n "$sourced" ] || { echo "found no sourced file (test broken?)"; exit 1; }

echo "runtime-deps: only missing runtime packages, plugin from the build, clear failure without one"
