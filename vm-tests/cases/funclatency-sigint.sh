# funclatency -j on blk_mq_start_request (kprobe + kretprobe), stopped with
# SIGINT: exactly N calls for N direct reads.
. /vmtest/lib.sh
need_tracefs
start_tool barebpf funclatency -j blk_mq_start_request
wait_tracing 60
workload
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
c=$(json_count $W/out)
[ -n "$c" ] || fail "no top-level \"count\" in the JSON"
[ "$c" = $N ] || fail "count $c for $N reads"
s=$(json_bucket_sum $W/out)
[ "$s" = $N ] || fail "histogram buckets sum to $s for $N reads"
pass
