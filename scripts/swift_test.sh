#!/usr/bin/env bash
# Runs the whole `swift test` (extra arguments are passed on) with its output kept in
# out/swift-test.log. On failure it repeats each failure's lines at the end, where the tail of a
# CI log shows them: Swift Testing prints a failure when it happens, hundreds of lines earlier.
set -u
swift=${SWIFT:-swift}
mkdir -p out
log=out/swift-test.log
# shellcheck disable=SC2086  # SWIFT may carry options
$swift test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "== swift test failed (exit $status); its failures, from $log:"
  grep -n -A8 -e '✘' -e 'error:' -e 'Fatal error' -e 'Crash' -e 'signal' "$log" | grep -v '^[0-9]*[:-]✔' | head -200
fi
exit "$status"
