#!/usr/bin/env bash
# Runs the whole aooct test suite: installs what is missing, builds in
# ./build and runs `meson test`.  GPU tests skip (exit 77) without a CUDA
# device.  Extra arguments go to `meson test` (e.g. a test name).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The suite's build has the test-only CUDA fault injection
# (meson_options.txt: fault-injection; tests/base/test-cuda-faults.c needs it),
# which a normal build leaves out.
AOOCT_MESON_ARGS="-Dfault-injection=true ${AOOCT_MESON_ARGS:-}"
# shellcheck source=bootstrap.sh
source "$root/scripts/bootstrap.sh" || exit 1
# a build folder configured before the option existed, or without it
"$MESON" configure "$AOOCT_BUILD" -Dfault-injection=true >/dev/null || exit 1
# (bootstrap.sh turns on errexit; a failing suite must still get its summary)
set +e

"$MESON" test -C "$AOOCT_BUILD" --print-errorlogs "$@"
rc=$?
# One plain summary line, whatever the runner prints
python3 - "$AOOCT_BUILD/meson-logs/testlog.json" <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0, "TIMEOUT": 0, "ERROR": 0, "EXPECTEDFAIL": 0, "UNEXPECTEDPASS": 0}
try:
    for line in open(sys.argv[1]):
        r = json.loads(line)["result"]
        counts[r] = counts.get(r, 0) + 1
except OSError:
    pass
failed = counts["FAIL"] + counts["TIMEOUT"] + counts["ERROR"] + counts["UNEXPECTEDPASS"]
line = f"tests: {counts['OK'] + counts['EXPECTEDFAIL']} passed, {failed} failed, {counts['SKIP']} skipped"
print(line)
with open(sys.argv[1].replace("meson-logs/testlog.json", "test-summary.txt"), "w") as f:
    f.write(line + "\n")
PY
exit $rc
