# bitesize -d nullb0 (text), SIGINT: N direct 4 KiB reads by dd are N
# counts in dd's "4 -> 7" Kbytes bucket, nothing else of dd's, and nothing
# of anyone else's (nullb0 has no other I/O: env.sh). Each is named by its
# submitter (block_getrq): on 4.9 and 4.15 the task at block_rq_issue is
# kworker/1:1H for every one of these reads.
. /vmtest/lib.sh
need_tracefs
start_tool barebpf bitesize -d nullb0
wait_tracing 60
workload
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep -q '^Tracing block I/O... Hit Ctrl-C to end.$' $W/out || fail "no bcc Tracing line"
awk '/^Process Name = / { c = $4; next } c == "dd"' $W/out >$W/dd
grep -qE '^ +Kbytes +: count +distribution$' $W/dd ||
	fail "no 'Process Name = dd' section with a Kbytes histogram"
diag "dd: $(hist_bucket $W/dd 4) in 4 -> 7, $(hist_sum $W/dd) in all; all processes: $(hist_sum $W/out)"
[ "$(hist_bucket $W/dd 4)" = $N ] || fail "$(hist_bucket $W/dd 4) of dd's $N reads in 4 -> 7"
[ "$(hist_sum $W/dd)" = $N ] || fail "dd's histogram counts $(hist_sum $W/dd), want $N"
[ "$(hist_sum $W/out)" = $N ] || fail "$(hist_sum $W/out) I/Os counted on nullb0 for dd's $N"
pass
