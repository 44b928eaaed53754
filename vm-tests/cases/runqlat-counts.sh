# barebpf runqlat on the scheduler tracepoints. (1) A shell on CPU 0
# blocked reading a fifo is woken by 20 lines: runqlat -L's histogram
# for its thread, and runqlat -p's for its process, count exactly the
# context switches the kernel counts for it (voluntary + involuntary in
# /proc/PID/status) between two moments it sleeps: each switch in ends
# one wait. (2) A shell on CPU 0 alternating work and 1 ms sleeps: the
# median of its waits moves to a higher bucket once a CPU hog is pinned
# beside it.
. /vmtest/lib.sh
need_tracefs
command -v taskset >/dev/null || skip "no taskset in this busybox"
sched_reader
for how in -L -p; do
	sched_asleep $RD
	if [ $how = -p ]; then start_tool barebpf runqlat -p $RD
	else start_tool barebpf runqlat -L; fi
	wait_tracing 60
	sched_asleep $RD; a=$(sched_ctxt $RD)
	i=0
	while [ $i -lt 20 ]; do echo x >&3; usleep 20000; i=$((i + 1)); done
	sched_asleep $RD; b=$(sched_ctxt $RD)
	stop_tool INT
	[ $RC = 0 ] || fail "runqlat $how: exit $RC after SIGINT"
	grep -q 'usecs               : count     distribution' $W/out || fail "no bcc histogram header"
	if [ $how = -p ]; then n=$(hist_sum $W/out); else n=$(hist_sum $W/out "tid = $RD"); fi
	diag "runqlat $how: $n waits, $((b - a)) switches"
	[ $((b - a)) -ge 10 ] || fail "only $((b - a)) switches of the reader for 20 lines"
	[ "$n" = $((b - a)) ] || fail "runqlat $how counted $n waits of $RD, the kernel $((b - a)) switches"
done
exec 3>&-
wait $RD
# the bucket ("lo") of the median wait in runqlat -j's histogram
median() {
	json_flat "$1" | grep -o '{"lo":[0-9]*,"hi":[0-9]*,"count":[0-9]*}' |
		sed 's/{"lo":\([0-9]*\),"hi":[0-9]*,"count":\([0-9]*\)}/\1 \2/' |
		awk '{ lo[NR] = $1; c[NR] = $2; n += $2 }
			END { for (i = 1; i <= NR; i++) { a += c[i]; if (a * 2 >= n) { print lo[i] " " n; exit } } print "0 0" }'
}
taskset -c 0 sh -c 'while :; do i=0; while [ $i -lt 1000 ]; do i=$((i + 1)); done; usleep 1000; done' &
WK=$!
start_tool barebpf runqlat -j -p $WK --duration 2
wait_exit 30 "--duration 2"
set -- $(median $W/out); alone=$1; n1=$2
taskset -c 0 sh -c 'while :; do :; done' &
HOG=$!
start_tool barebpf runqlat -j -p $WK --duration 2
wait_exit 30 "--duration 2"
set -- $(median $W/out); shared=$1; n2=$2
kill $HOG $WK; wait $HOG $WK 2>/dev/null
diag "median bucket $alone us alone ($n1 waits), $shared us beside a hog ($n2)"
[ $n1 -ge 5 ] && [ $n2 -ge 5 ] || fail "too few waits: $n1 alone, $n2 with the hog"
[ $shared -gt $alone ] || fail "median wait bucket $alone us alone, $shared us beside a CPU hog"
pass
