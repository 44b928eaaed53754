# freeze --correlate (the bio_queue tracepoint and the queue-entry kprobe
# load and attach too): qfreezer's 4 freezes of nullb0, named nullb0.
. /vmtest/lib.sh
need_tracefs
Q=/sys/block/nullb0/queue
cat >/bin/qfreezer <<'EOF'
#!/bin/sh
q=/sys/block/nullb0/queue
i=0
while [ $i -lt ${1:-1} ]; do
	echo mq-deadline >$q/scheduler
	echo none >$q/scheduler
	echo 32 >$q/nr_requests
	echo 64 >$q/nr_requests
	i=$((i + 1))
done
EOF
chmod +x /bin/qfreezer
sched=$(sed 's/.*\[\(.*\)\].*/\1/' $Q/scheduler)
echo none >$Q/scheduler && echo 64 >$Q/nr_requests || fail "cannot set nullb0 to none/64"
restore() { echo $sched >$Q/scheduler; }

start_tool barebpf freeze -C -j --no-stack
wait_tracing 120
dd if=/dev/nullb0 of=/dev/null bs=4k iflag=direct count=100000 2>/dev/null &
DD=$!
sleep 1
/bin/qfreezer 1 || { kill $DD; restore; fail "qfreezer failed"; }
sleep 1
kill $DD; wait $DD 2>/dev/null
stop_tool INT
restore
[ $RC = 0 ] || fail "exit $RC after SIGINT"
diag "output: $(cat $W/out)"
n=$(grep -c '"comm":"qfreezer".*"disk":"nullb0"' $W/out)
[ "$n" = 4 ] || fail "$n freezes by qfreezer on nullb0, expected 4"
grep '"comm":' $W/out | grep -q '"stack"' && fail "a stack despite --no-stack"
grep -q '"stacks":\[\]' $W/out || fail "a summary per stack despite --no-stack"
pass
