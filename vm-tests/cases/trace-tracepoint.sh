# trace -M 10 on a tracepoint (text): stops by itself after exactly 10 calls
# of block:block_rq_issue, under bcc's PID TID COMM FUNC header.
. /vmtest/lib.sh
need_tracefs
start_tool trace -M 10 t:block:block_rq_issue
wait_tracing 60
workload
wait_exit 30 "-M 10 and $N I/Os"
[ $RC = 0 ] || fail "exit $RC"
grep -qE '^PID +TID +COMM +FUNC' $W/out || fail "no 'PID TID COMM FUNC' header"
c=$(awk '$NF == "block_rq_issue"' $W/out | wc -l)
[ "$c" = 10 ] || fail "$c block_rq_issue lines, expected 10 (-M 10)"
pass
