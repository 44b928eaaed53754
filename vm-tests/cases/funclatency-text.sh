# funclatency -u (tool symlink, bcc's text output), SIGINT: a usecs log2
# histogram holding N calls and "avg = .. usecs, total: .. usecs, count: N".
. /vmtest/lib.sh
need_tracefs
start_tool funclatency -u blk_mq_start_request
wait_tracing 60
workload
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep -qE '^ +usecs +: count +distribution' $W/out || fail "no 'usecs : count distribution' header"
s=$(hist_sum $W/out)
[ "$s" = $N ] || fail "histogram holds $s calls for $N reads"
grep -qE "^avg = [0-9]+ usecs, total: [0-9]+ usecs, count: $N\$" $W/out ||
	fail "no 'avg = N usecs, total: N usecs, count: $N' line"
pass
