#!/bin/sh
# Run each libFuzzer harness for a bounded time; fail on any crash, leak,
# timeout or memory blow-up. Called by `make fuzz`:
#   run.sh BUILD_DIR SECONDS RSS_MB MALLOC_MB TIMEOUT harness...
# Seeds come from tests/fuzz/corpus/<harness> (read only); what a run adds
# goes to BUILD_DIR/fuzz/corpus/<harness>, a failing input to
# BUILD_DIR/fuzz/artifacts/ (turn it into a unit test in tests/unit).
set -u
o=$1 secs=$2 rss=$3 malloc=$4 timeout=$5
shift 5
here=$(dirname "$0")
failed=0 passed=0
mkdir -p "$o/fuzz/artifacts"
for h in "$@"; do
	seeds=$here/corpus/$h
	work=$o/fuzz/corpus/$h
	log=$o/fuzz/$h.log
	mkdir -p "$work"
	[ -d "$seeds" ] || { echo "fuzz $h: no seed corpus $seeds"; exit 1; }
	"$o/fuzz/fuzz_$h" -max_total_time="$secs" -rss_limit_mb="$rss" \
		-malloc_limit_mb="$malloc" -timeout="$timeout" \
		-print_final_stats=1 \
		-artifact_prefix="$o/fuzz/artifacts/$h-" \
		"$work" "$seeds" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	peak=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ]; then
		printf 'fuzz %-10s ok: %s runs in %s s, %s, peak RSS %s MiB, corpus %s files\n' \
			"$h" "${execs:-?}" "$secs" "${cov:-cov: ?}" "${peak:-?}" \
			"$(ls "$work" "$seeds" | wc -l)"
		passed=$((passed + 1))
	else
		echo "fuzz $h FAILED (exit $rc); the end of $log:"
		tail -n 40 "$log"
		ls -l "$o/fuzz/artifacts/" | grep -- "$h-" || true
		failed=$((failed + 1))
	fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
