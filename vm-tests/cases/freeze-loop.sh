# A freeze that no sysfs write names: busybox losetup's LOOP_SET_STATUS64
# and LOOP_CLR_FD freeze loop0's queue from an ioctl. freeze learns the
# disk by reading each disk's debugfs block/<disk>/state, or before 6.10
# without debugfs its queue/nr_requests (the queue shows itself):
# every record must say loop0 (losetup's, and the last close of loop0 by dd,
# which also freezes it on 4.15). Needs a built-in loop driver.
. /vmtest/lib.sh
need_tracefs
[ -b /dev/loop0 ] || skip "no /dev/loop0 (loop is a module on this kernel)"
dd if=/dev/zero of=/tmp/loop.img bs=1M count=4 2>/dev/null || fail "cannot make /tmp/loop.img"
start_tool barebpf freeze -j
wait_tracing 120
losetup /dev/loop0 /tmp/loop.img || fail "losetup failed"
dd if=/dev/loop0 of=/dev/null bs=4k count=10 2>/dev/null
losetup -d /dev/loop0 || fail "losetup -d failed"
sleep 1
stop_tool INT
rm -f /tmp/loop.img
[ $RC = 0 ] || fail "exit $RC after SIGINT"
diag "output: $(cat $W/out)"
grep '"comm":' $W/out >$W/rec
n=$(wc -l <$W/rec)
[ "$n" -ge 1 ] || fail "no freeze record for losetup on loop0"
l=$(grep -c '"disk":"loop0"' $W/rec)
[ "$l" = "$n" ] || fail "$l of $n records on loop0"
grep -q '"comm":"losetup"' $W/rec || fail "no freeze by losetup"
grep -q 'queue_attr_store' $W/rec && fail "a loop freeze through sysfs?"
pass
