# barebpf biolatency -D -j: N reads on nullb0, in the bucket whose "lo"
# holds the injected completion time (see check_latency).
. /vmtest/lib.sh
need_tracefs
start_tool barebpf biolatency -D -j
wait_tracing 60
workload
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep -q nullb0 $W/out || fail "nullb0 not in the JSON"
check_latency $(json_bucket_sum $W/out) $(json_bucket $W/out $BUCKET_LO) $(json_below $W/out $BUCKET_LO)
pass
