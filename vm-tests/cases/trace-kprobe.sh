# trace -j on a kernel function, SIGINT: exactly one JSON line per call
# (N for N direct reads), nothing left in kprobe_events.
. /vmtest/lib.sh
need_tracefs
start_tool barebpf trace -j blk_mq_start_request
wait_tracing 60
workload
sleep 1   # let the reader drain the perf buffers
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
c=$(grep -c '"func":"blk_mq_start_request"' $W/out)
[ "$c" = $N ] || fail "$c events for $N reads"
grep -v '"func":"blk_mq_start_request"' $W/out >$W/other && fail "other lines: $(head -n 3 $W/other)"
no_probes_left "SIGINT"
pass
