# A queue torn down frozen (null_blk's power off: blk_cleanup_queue /
# blk_mq_destroy_queue freeze it for good) leaves freeze holding it
# "frozen"; when the next disk's queue gets the same address (its own slab
# cache, last freed first: the case runs on one CPU and lets RCU free the
# old queue), its freezes used to count as nested for the rest of the run:
# none reported. A new queue is not frozen: freeze heals that state. Four
# times: make nullb1 (configfs), switch its scheduler twice with helper
# `healer`, power it off. Every switch must be one record by healer on
# nullb1; every queue torn down frozen must be either still held frozen at
# exit or healed (counted in the summary), whether or not its address came
# back.
. /vmtest/lib.sh
need_tracefs
C=/sys/kernel/config
grep -q configfs /proc/filesystems || skip "no configfs"
mount | grep -q " $C " || mount -t configfs none $C 2>/dev/null
[ -d $C/nullb ] || skip "null_blk has no configfs interface"
D=$C/nullb/nullb1
# two switches, each a change (a new disk may start with either)
cat >/bin/healer <<'EOF'
#!/bin/sh
s=/sys/block/nullb1/queue/scheduler
case $(cat $s) in
*"[none]"*) echo mq-deadline >$s && echo none >$s ;;
*) echo none >$s && echo mq-deadline >$s ;;
esac
EOF
chmod +x /bin/healer
start_tool barebpf freeze -j --no-stack
wait_tracing 120
taskset -p 1 $$ >/dev/null || fail "cannot pin the case to CPU 0"
k=0
while [ $k -lt 4 ]; do
	mkdir $D && echo 2 >$D/queue_mode && echo 0 >$D/irqmode && echo 1 >$D/power ||
		fail "cannot make nullb1 (round $k)"
	i=0; while [ ! -e /sys/block/nullb1/queue/scheduler ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	/bin/healer || fail "healer could not switch nullb1's scheduler (round $k)"
	echo 0 >$D/power && rmdir $D || fail "cannot remove nullb1 (round $k)"
	sleep 1
	k=$((k + 1))
done
sleep 0.5
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
diag "summary: $(grep '"summary"' $W/out)"
mine=$(grep -c '"comm":"healer","pid":[0-9]*,"tid":[0-9]*,"disk":"nullb1",' $W/out)
diag "records by healer on nullb1: $mine; others: $(grep -v '"comm":"healer"' $W/out | grep -c '"comm"')"
[ "$mine" = 8 ] || fail "$mine records by healer on nullb1 for 8 scheduler switches"
h=$(sed -n 's/.*"healed":\([0-9]*\),.*/\1/p' $W/out)
f=$(grep -c '"still_frozen"' $W/out)
diag "of 4 queues torn down frozen: $f still held frozen at exit, $h healed"
[ $((f + ${h:-0})) = 4 ] || fail "$f queues held frozen at exit and $h healings for 4 queues torn down frozen"
pass
