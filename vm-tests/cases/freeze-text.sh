# freeze (tool symlink, text, --duration): qfreezer's 4 freezes of nullb0
# under a direct-I/O reader, one line each with the file written (ATTR) and
# its kernel stack, then the summary per disk, per file and per stack;
# exits by itself. A scheduler switch
# nests as many freezes as the kernel's own kprobe counts beyond one (6.12:
# queue_attr_store's and the switch's).
. /vmtest/lib.sh
need_tracefs
qfreezer_setup
freeze_calibrate

start_tool freeze --duration 6
wait_tracing 120
dd if=/dev/nullb0 of=/dev/null bs=4k iflag=direct count=100000 2>/dev/null &
DD=$!
sleep 1
/bin/qfreezer 1 || { kill $DD; restore; fail "qfreezer failed"; }
kill $DD; wait $DD 2>/dev/null
wait_exit 60 "--duration 6"
restore
[ $RC = 0 ] || fail "exit $RC"
diag "output:"; cat $W/out
grep -qE '^TIME +COMM +PID +DISK +ATTR +FROZEN\(ms\) +DRAIN\(ms\) +NESTED$' $W/out || fail "no column header"
ns=$((FREEZE_PER2 / 2 - 1))
# the scheduler switches nest, the nr_requests writes do not
l=$(grep -cE '^[0-9:]{8} qfreezer +[0-9]+ +nullb0 +nr_requests +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +0$' $W/out)
s=$(grep -cE '^[0-9:]{8} qfreezer +[0-9]+ +nullb0 +scheduler +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +'$ns'$' $W/out)
[ "$l" = 2 ] && [ "$s" = 2 ] || fail "$l lines 'TIME qfreezer PID nullb0 nr_requests FROZEN DRAIN 0' and $s 'TIME qfreezer PID nullb0 scheduler FROZEN DRAIN $ns', expected 2 and 2"
if [ "$STORE_FREEZES" = 1 ]; then
	grep -qE '^        queue_attr_store\+0x[0-9a-f]+ \[kernel\]$' $W/out || fail "no stack frame '        queue_attr_store+0x.. [kernel]'"
else
	grep -qE '^        elv_iosched_store\+0x[0-9a-f]+ \[kernel\]$' $W/out || fail "no stack frame '        elv_iosched_store+0x.. [kernel]'"
	grep -qE '^        queue_requests_store\+0x[0-9a-f]+ \[kernel\]$' $W/out || fail "no stack frame '        queue_requests_store+0x.. [kernel]'"
fi
grep -qE '^4 freezes, [0-9]+\.[0-9]{3} ms frozen in total$' $W/out || fail "no '4 freezes, N ms frozen in total'"
grep -qE '^nullb0 +4 +[0-9.]+ +[0-9.]+ +[0-9.]+$' $W/out || fail "no 'nullb0 4 ...' line in the summary"
grep -qE '^ATTR +FREEZES +FROZEN\(ms\) +MAX\(ms\) +DRAIN\(ms\)$' $W/out || fail "no summary per ATTR"
grep -qE '^scheduler +2 +[0-9.]+ +[0-9.]+ +[0-9.]+$' $W/out || fail "no 'scheduler 2 ...' line in the summary"
grep -qE '^nr_requests +2 +[0-9.]+ +[0-9.]+ +[0-9.]+$' $W/out || fail "no 'nr_requests 2 ...' line in the summary"
pass
