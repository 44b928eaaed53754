# barebpf cpudist on sched_switch: a shell on CPU 0 blocked reading a
# fifo is woken by 20 lines. Between two moments it sleeps, the kernel
# counts its context switches (voluntary + involuntary, /proc/PID/status):
# cpudist -L counts as many slices on CPU for its thread (one per switch
# out), cpudist -O -p one less time off CPU for its process (one per
# switch in, but for the first: the switch out before it came before the
# tool started).
. /vmtest/lib.sh
need_tracefs
command -v taskset >/dev/null || skip "no taskset in this busybox"
sched_reader
for how in -L -O; do
	sched_asleep $RD
	if [ $how = -O ]; then start_tool barebpf cpudist -O -p $RD
	else start_tool barebpf cpudist -L; fi
	wait_tracing 60
	sched_asleep $RD; a=$(sched_ctxt $RD)
	i=0
	while [ $i -lt 20 ]; do echo x >&3; usleep 20000; i=$((i + 1)); done
	sched_asleep $RD; b=$(sched_ctxt $RD)
	stop_tool INT
	[ $RC = 0 ] || fail "cpudist $how: exit $RC after SIGINT"
	grep -q 'usecs               : count     distribution' $W/out || fail "no bcc histogram header"
	if [ $how = -O ]; then n=$(hist_sum $W/out); want=$((b - a - 1))
	else n=$(hist_sum $W/out "tid = $RD"); want=$((b - a)); fi
	diag "cpudist $how: $n counted, $((b - a)) switches"
	[ $((b - a)) -ge 10 ] || fail "only $((b - a)) switches of the reader for 20 lines"
	[ "$n" = $want ] || fail "cpudist $how counted $n for $RD, expected $want ($((b - a)) switches)"
done
exec 3>&-
wait $RD
pass
