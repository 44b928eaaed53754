# freeze --correlate (the bio_queue tracepoint and the queue-entry kprobe
# load and attach too): qfreezer's 4 freezes of nullb0, named nullb0.
. /vmtest/lib.sh
need_tracefs
qfreezer_setup

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
