#!/usr/bin/env bash
# Builds the libFuzzer harness (Tests/Fuzz/README.md) and runs each target SECONDS seconds from its
# seed corpus. New inputs go to a scratch corpus, crashes to ARTIFACTS (default: a temp dir); exits 1
# when any target crashed, timed out or ran out of memory, and prints each target's executions.
#   Tests/Fuzz/run.sh SECONDS [target ...]      (no targets: all of them)
#   Tests/Fuzz/run.sh seeds                      rewrites Tests/Fuzz/corpus from Spec/vectors
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:?usage: Tests/Fuzz/run.sh SECONDS [target ...] | seeds}; shift
build=.build/fuzz
bin="$build/debug/PushFuzz"
# --sanitize=fuzzer makes SwiftPM leave `main` to libFuzzer; the instrumentation comes from the one
# combined -sanitize=fuzzer,address (SwiftPM's two --sanitize flags reach the frontend as separate
# -sanitize options, the last of which wins, and the code is then built without coverage).
rm -f "$bin"
PUSHNODE_FUZZ=1 swift build --build-path "$build" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address --product PushFuzz 2>&1 \
  | grep -v "Cannot export local symbol" || true
[ -x "$bin" ] || { echo "fuzz: the harness did not build"; exit 1; }
# The Swift runtime's backtracer would read memory ASan guards and report itself; libFuzzer's own
# report is the one wanted.
export SWIFT_BACKTRACE=enable=no
if [ "$mode" = seeds ]; then
  rm -rf Tests/Fuzz/corpus
  PUSHNODE_FUZZ_WRITE_SEEDS=Tests/Fuzz/corpus "$bin"
  exit $?
fi
seconds=$mode
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(ls Tests/Fuzz/corpus)
artifacts=${ARTIFACTS:-$(mktemp -d /tmp/pushnode-fuzz.XXXXXX)}
mkdir -p "$artifacts"
# Targets run side by side, FUZZ_JOBS at a time (default: one per core; each is one process on one
# core), and report in the order given.
jobs_max=${FUZZ_JOBS:-$(nproc)}
run_target() {
  local target=$1 scratch="$artifacts/corpus-$1" log="$artifacts/$1.log" rc runs
  mkdir -p "$scratch"
  PUSHNODE_FUZZ_TARGET="$target" "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$target-" "$scratch" "Tests/Fuzz/corpus/$target" >"$log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  if [ $rc -ne 0 ] || ls "$artifacts/$target-"* >/dev/null 2>&1; then
    {
      echo "fuzz: $target FAILED (rc $rc) after ${runs:-?} executions; log $log"
      grep -m3 -E "ERROR|invariant|Fatal error|deadly signal" "$log" | sed 's/^/    /'
      ls "$artifacts/$target-"* 2>/dev/null | sed 's/^/    input: /'
    } >"$artifacts/$target.result"
  else
    echo "fuzz: $target ok, ${runs:-?} executions in ${seconds}s" >"$artifacts/$target.result"
  fi
}
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  run_target "$target" &
done
wait
failed=0
for target in "${targets[@]}"; do
  if [ -f "$artifacts/$target.result" ]; then cat "$artifacts/$target.result"; else echo "fuzz: $target FAILED (no result)"; fi
  grep -q FAILED "$artifacts/$target.result" 2>/dev/null && failed=1
  [ -f "$artifacts/$target.result" ] || failed=1
done
[ $failed -eq 0 ] || { echo "fuzz: crashes under $artifacts"; exit 1; }
