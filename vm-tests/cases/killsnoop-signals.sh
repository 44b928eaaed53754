# barebpf killsnoop -p (this shell, whose kill is a builtin): each of a
# known set of kill()s once, with bcc's columns: signal 0 and SIGCONT to
# a sleeping child (result 0), SIGTERM to a pid beyond pid_max (-3,
# ESRCH), SIGKILL to the child (0), and the SIGINT that stops the tool
# (0); -x: the failed one alone. Through
# the syscall tracepoints, or kprobes where they take no BPF program.
. /vmtest/lib.sh
need_tracefs
syscall_way kill
for x in "" -x; do
	sleep 30 &
	S=$!
	start_tool barebpf killsnoop $x -p $$
	wait_tracing 60
	kill -0 $S; kill -CONT $S; kill -TERM 99999 2>/dev/null; kill -KILL $S
	wait $S 2>/dev/null
	sleep 0.5
	TP=$TOOL_PID
	stop_tool INT
	[ $RC = 0 ] || fail "killsnoop $x: exit $RC after SIGINT"
	grep -q "Tracing kill()s through $WAY" $W/out || fail "not through $WAY"
	grep -qE '^TIME +PID +COMM +SIG +TPID +RESULT$' $W/out || fail "no bcc header line"
	lines() { awk -v me=$$ -v sig=$1 -v t=$2 -v r=$3 '$2 == me && $4 == sig && $5 == t && $6 == r' $W/out | wc -l; }
	n=$(awk -v me=$$ '$2 == me' $W/out | wc -l)
	if [ -z "$x" ]; then
		[ $n = 5 ] || fail "$n kills by $$, expected 5"
		[ $(lines 0 $S 0) = 1 ] || fail "no 'kill -0 $S' with result 0"
		[ $(lines 18 $S 0) = 1 ] || fail "no SIGCONT to $S with result 0"
		[ $(lines 9 $S 0) = 1 ] || fail "no SIGKILL to $S with result 0"
		[ $(lines 2 $TP 0) = 1 ] || fail "no SIGINT to $TP with result 0"
	else
		[ $n = 1 ] || fail "-x: $n kills by $$, expected the failed one"
	fi
	[ $(lines 15 99999 -3) = 1 ] || fail "no SIGTERM to 99999 with result -3"
done
pass
