# barebpf biolatency -D -j: N reads on nullb0, all in the bucket whose "lo"
# holds the injected completion time.
. /vmtest/lib.sh
need_tracefs
start_tool barebpf biolatency -D -j
wait_tracing 60
workload
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep -q nullb0 $W/out || fail "nullb0 not in the JSON"
s=$(json_bucket_sum $W/out); b=$(json_bucket $W/out $BUCKET_LO)
[ "$s" = $N ] || fail "buckets hold $s I/Os for $N reads"
[ "$b" = $N ] || fail "$b of $N I/Os in the bucket \"lo\":$BUCKET_LO (completion_nsec=$NSEC)"
pass
