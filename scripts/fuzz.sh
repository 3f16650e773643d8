#!/usr/bin/env bash
# `make fuzz`: builds `rowkit` with AddressSanitizer and libFuzzer's coverage instrumentation in
# .build-fuzz (release, -DROWKIT_FUZZ), then runs every harness for FUZZ_SECONDS seconds each (or
# FUZZ_RUNS executions), keeping its corpus in .build-fuzz/corpus/<harness> and any crash in
# .build-fuzz/crashes/<harness>. Prints executions per harness and records them in Fuzz/RESULTS.md.
#
#   make fuzz                                   # 20 s per harness (a smoke run)
#   make fuzz FUZZ_SECONDS=3600                 # the long run: an hour per harness
#   make fuzz FUZZ_RUNS=10000000                # or ten million executions per harness
#   make fuzz FUZZ_HARNESSES="row-file"         # only some harnesses
#
# Why not `-sanitize=fuzzer`: that links libFuzzer's own `main`, and `rowkit` has one (the
# harnesses live in the command's module to fuzz the command's own parsers), so the build uses
# the same instrumentation (-sanitize=address -sanitize-coverage=…) and libFuzzer without its
# main (libclang_rt.fuzzer_no_main), entered through LLVMFuzzerRunDriver.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-20}
runs=${FUZZ_RUNS:-}
harnesses=${FUZZ_HARNESSES:-"yaml-template yaml-stylesheet measure-line row-file prepared-text"}
build=.build-fuzz

toolchain=$(dirname "$(readlink -f "$(command -v swiftc)")")/..
fuzzer=$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a \
            "$toolchain"/lib/swift/clang/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -1 || true)
if [ -z "$fuzzer" ]; then
  echo "fuzz: libclang_rt.fuzzer_no_main-x86_64.a not found in the Swift toolchain ($toolchain)" >&2
  exit 1
fi

coverage=edge,inline-8bit-counters,pc-table,trace-cmp
echo "fuzz: building rowkit with AddressSanitizer and libFuzzer in $build"
swift build -c release --build-path "$build" --product rowkit \
  -Xswiftc -DROWKIT_FUZZ -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=$coverage -Xswiftc -g \
  -Xcc -fsanitize=address -Xcc -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp \
  -Xlinker "$fuzzer" -Xlinker -lstdc++
binary=$build/release/rowkit

declare -A max_len=([yaml-template]=8192 [yaml-stylesheet]=8192 [measure-line]=4096 [row-file]=16384 [prepared-text]=2048)
declare -A extra_seeds=([yaml-template]=Samples/cells [yaml-stylesheet]=Samples/cells/broken)
declare -A dictionary=([yaml-template]=yaml [yaml-stylesheet]=yaml [measure-line]=json [row-file]=json)

summary=$(mktemp --suffix=.tsv "$build/summary.XXXXXX")  # one per run: runs may go side by side

failed=0
for harness in $harnesses; do
  corpus=$build/corpus/$harness
  crashes=$build/crashes/$harness
  mkdir -p "$corpus" "$crashes"
  args=(-artifact_prefix="$crashes/" -timeout=20 -rss_limit_mb=4096 -max_len="${max_len[$harness]:-4096}"
        -print_final_stats=1 -close_fd_mask=1)
  if [ -n "$runs" ]; then args+=(-runs="$runs"); else args+=(-max_total_time="$seconds"); fi
  if [ -n "${dictionary[$harness]:-}" ]; then args+=(-dict="Fuzz/dictionaries/${dictionary[$harness]}.dict"); fi
  seeds=(Fuzz/seeds/$harness)
  if [ -n "${extra_seeds[$harness]:-}" ]; then seeds+=("${extra_seeds[$harness]}"); fi
  log=$build/$harness.log
  echo "fuzz: $harness (${runs:+$runs executions}${runs:-$seconds s})…"
  status=0
  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:handle_abort=1 \
    "$binary" fuzz "$harness" -- "${args[@]}" "$corpus" "${seeds[@]}" < /dev/null > "$log" 2>&1 || status=$?
  executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  elapsed=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' | tail -1)
  corpus_size=$(ls "$corpus" | wc -l)
  found=$(ls "$crashes" | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$harness" "${executions:-0}" "${elapsed:-?}" "$corpus_size" "$found" "$status" >> "$summary"
  if [ "$status" -ne 0 ]; then
    failed=1
    echo "fuzz: $harness FAILED (status $status) — see $log and $crashes:" >&2
    grep -E 'ERROR|Fatal error|panic|precondition|SUMMARY' "$log" | head -5 >&2 || true
  fi
  echo "fuzz: $harness: ${executions:-0} executions in ${elapsed:-?} s, corpus $corpus_size inputs, $found crash files"
done

python3 scripts/fuzz_results.py "$summary" Fuzz/RESULTS.md
rm -f "$summary"
exit $failed
