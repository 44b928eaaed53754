# biolatency -D (tool symlink, text): N reads on nullb0, in the log2 usecs
# bucket holding the injected completion time (see check_latency).
. /vmtest/lib.sh
need_tracefs
start_tool biolatency -D
wait_tracing 60
workload
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
# bcc prints "disk = 'sda'" (older) or "disk = sda".
awk '/^disk = / { d = $3; gsub(/'"'"'/, "", d); next } d == "nullb0"' $W/out >$W/nullb0
grep -qE '^ +usecs +: count +distribution' $W/nullb0 || fail "no 'disk = nullb0' section with a usecs histogram"
check_latency $(hist_sum $W/nullb0) $(hist_bucket $W/nullb0 $BUCKET_LO) $(hist_below $W/nullb0 $BUCKET_LO)
pass
