#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The project's files, one path per line relative to the tree's root,
# sorted, in a git checkout or not (an unpacked release archive, `meson
# dist`): git's list of tracked files in a checkout, else every file but
# git's own, the Python environment, the GPU host's kits, worktrees,
# caches and meson build folders (what .gitignore leaves out).  Tests list the files they check
# with it (tests/test-docs.sh, tests/test-runtime-deps.sh), so that they
# pass outside a checkout too.
#
#   scripts/checks/tree-files.sh [FOLDER...]   (default: the whole tree)
#   AOOCT_TREE=DIR   the tree to list (default: this script's)
set -euo pipefail
root=${AOOCT_TREE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$root"
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
  git ls-files -- "${@:-.}" | LC_ALL=C sort
else
  find "${@:-.}" \( -name .git -o -name .venv -o -name '.gstkit*' -o -name .wt -o -name __pycache__ \
    -o -name .file-from-disk \) -prune -o -type d -exec test -e '{}/meson-private' ';' -prune \
    -o \( -type f -o -type l \) ! -name '*~' ! -name '*.pyc' -print | sed 's|^\./||' | LC_ALL=C sort
fi
