# trace's arguments at a function's entry: arg3 of vfs_read (the count)
# filters and prints exactly the N reads of 1234 bytes, whatever the
# other reads. On riscv64 6.12 the kprobe sits right past the function's
# ftrace patch site (the entry itself is refused): the arguments must
# still be in a0..a7 there. (trace-args-read does the same beside a
# return probe, which that kernel cannot place.)
. /vmtest/lib.sh
need_tracefs
dd if=/dev/zero of=$W/f bs=4321 count=$N 2>/dev/null || fail "cannot write $W/f"
start_tool barebpf trace -n dd 'p::vfs_read (arg3 == 1234) "count=%d", arg3'
wait_tracing 60
dd if=$W/f of=/dev/null bs=1234 count=$N 2>/dev/null || fail "dd bs=1234 failed"
dd if=$W/f of=/dev/null bs=4321 count=7 2>/dev/null || fail "dd bs=4321 failed"
sleep 1   # let the reader drain the perf buffers
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep -qE '^PID +TID +COMM +FUNC +-$' $W/out || fail "no 'PID TID COMM FUNC -' header"
c=$(grep -cE '^[0-9]+ +[0-9]+ +dd +vfs_read +count=1234$' $W/out)
all=$(($(wc -l <$W/out) - 2)) # but the Tracing line and the header
diag "$c count=1234 lines for $N reads, $all lines"
[ "$c" = $N ] || fail "$c entries of 1234-byte reads for $N"
[ "$all" = $N ] || fail "$all lines: other reads passed the filter"
no_probes_left "SIGINT"
pass
