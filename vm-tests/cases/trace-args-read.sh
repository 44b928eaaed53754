# trace's argument language on kprobes: an argument and a return value of
# vfs_read printed exactly, and filters that keep exactly the known subset.
# dd reads a file N times 1234 bytes at a time, then M times 4321 bytes:
# the entry probe keeps the 1234-byte reads (arg3, the count), the return
# probe the 4321-byte ones (retval, bytes read), each in one run.
. /vmtest/lib.sh
need_tracefs
M=7
dd if=/dev/zero of=$W/f bs=4321 count=$((N + M)) 2>/dev/null || fail "cannot write $W/f"
start_tool barebpf trace -n dd 'p::vfs_read (arg3 == 1234) "count=%d", arg3' \
	'r::vfs_read ((int)retval > 4000 && (int)retval < 5000) "ret=%ld", retval'
wait_tracing 60
dd if=$W/f of=/dev/null bs=1234 count=$N 2>/dev/null || fail "dd bs=1234 failed"
dd if=$W/f of=/dev/null bs=4321 count=$M 2>/dev/null || fail "dd bs=4321 failed"
sleep 1   # let the reader drain the perf buffers
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep -qE '^PID +TID +COMM +FUNC +-$' $W/out || fail "no 'PID TID COMM FUNC -' header"
c=$(grep -cE '^[0-9]+ +[0-9]+ +dd +vfs_read +count=1234$' $W/out)
r=$(grep -cE '^[0-9]+ +[0-9]+ +dd +vfs_read +ret=4321$' $W/out)
all=$(($(wc -l <$W/out) - 2)) # but the Tracing line and the header
diag "$c count=1234 lines for $N reads, $r ret=4321 lines for $M, $all lines"
[ "$c" = $N ] || fail "$c entries of 1234-byte reads for $N"
[ "$r" = $M ] || fail "$r returns of 4321 bytes for $M"
[ "$all" = $((N + M)) ] || fail "$all lines: other reads passed the filters"
no_probes_left "SIGINT"
pass
