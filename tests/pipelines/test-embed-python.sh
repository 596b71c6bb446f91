#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# examples/aooct_embed.py as a user runs it, with --check: the chain from
# Python, GRAY8 B-scans and complex depth data as NumPy arrays, live
# property changes that must show on them.  Uses the first python3 that has
# gi and numpy (Debian's /usr/bin/python3 before a pyenv or venv one on
# PATH); exit 77 (skipped) when none has them (scripts/bootstrap.sh installs
# python3-gi and python3-numpy).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

py=
for p in /usr/bin/python3 python3; do
  if "$p" -c 'import gi, numpy; gi.require_version("Gst", "1.0")' 2>/dev/null; then
    py=$p
    break
  fi
done
[ -n "$py" ] || { echo "no python3 with gi and numpy: skipped"; exit 77; }
exec "$py" "$root/examples/aooct_embed.py" --check
