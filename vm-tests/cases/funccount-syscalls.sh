# vmtest-timeout: 300
# funccount -v -p PID 't:syscalls:*' of a dd copying 300 one-byte blocks:
# from 4.17 the syscalls/ events go through raw_syscalls' sys_enter and
# sys_exit by number (-v: "N syscalls/ events counted by number"), the
# exit's number read from the task's pt_regs where syscall_get_nr() reads
# it (asm/ARCH.h): every read and write counted at the entry is counted at
# the exit, under its own name, 300 or more. (Not run before 4.17: there
# they are perf events, as ever.)
. /vmtest/lib.sh
need_tracefs
case "$R" in 4.1[0-6].*|4.[0-9].*) skip "raw tracepoints are 4.17+" ;; esac
# the shell waits for the go in stat()s and wait4()s, never in a read
sh -c "while [ ! -e $W/go ]; do sleep 0.1; done; exec dd if=/dev/zero of=/dev/null bs=1 count=300" 2>/dev/null &
P=$!
start_tool barebpf funccount -v --max-probes 2000 -p $P 't:syscalls:*'
wait_tracing 120
touch $W/go
wait $P
sleep 1
stop_tool INT 120
[ $RC = 0 ] || fail "exit $RC: $(tail -n 3 $W/err)"
nsys=$(sed -n 's/^\([0-9]*\) syscalls\/ events counted by number.*/\1/p' $W/err)
[ "${nsys:-0}" -ge 100 ] || fail "'$nsys' syscalls/ events through raw_syscalls"
for c in read write; do
	e=$(awk -v r=syscalls:sys_enter_$c '$1 == r { print $2 }' $W/out)
	x=$(awk -v r=syscalls:sys_exit_$c '$1 == r { print $2 }' $W/out)
	[ "${e:-0}" -ge 300 ] || fail "$c entered '$e' times, not 300 or more"
	[ "$e" = "$x" ] || fail "$c entered $e times, exited '$x' times"
done
diag "$nsys through raw_syscalls; write entered $e, exited $x"
pass
