# vmtest-timeout: 600
# A detach that waits on the kernel: before 4.17 the end of each
# tracepoint's last perf event waits for RCU under event_mutex (1,173
# tracepoints: 7 s on 4.15 under TCG), and on every kernel so do a kprobe's
# perf event and its removal from kprobe_events (proc_*: 230 kprobes, 14 s
# on 4.15; 281, 16 s on 6.1). A SIGINT starts the detach; a second SIGINT
# a second later ends the tool within 3 s, exit 0, naming the child that
# finishes the detach in the background. That child is in a session of its
# own and leaves nothing: no barebpf process after it (a zombie has closed
# its perf events), no probe of ours in kprobe_events, tracefs mounted as
# before; another barebpf started meanwhile finds no stale probe it cannot
# remove. Not a terminal: no progress line. As pid 1 of a pid namespace,
# whose children die with it, the tool says so and finishes the detach.
. /vmtest/lib.sh
need_tracefs
save_mounts

# detach_in_background WHAT CMD...: the tool, stopped twice as above
detach_in_background() {
	local what=$1 n bg sid i alive p
	shift
	start_tool "$@"
	wait_tracing 400
	n=$(sed -n 's/^Tracing \([0-9]*\) functions.*/\1/p' $W/out)
	diag "$what: $n attached"
	kill -INT $TOOL_PID
	sleep 1
	tool_exited && fail "$what: the detach of $n took less than 1 s: too fast to test"
	kill -INT $TOOL_PID
	wait_exit 3 "the second SIGINT ($what)"
	[ $RC = 0 ] || fail "$what: exit $RC after the second SIGINT"
	bg=$(sed -n 's/^barebpf funccount: finishing the detach in the background (pid \([0-9]*\))$/\1/p' $W/err)
	[ -n "$bg" ] || fail "$what: no 'finishing the detach in the background (pid N)' line"
	grep -q 'Detaching\.\.\. ' $W/err && fail "$what: a progress line where stderr is not a terminal"
	# still at work, in its own session (field 6 of stat: its session)
	if [ -r /proc/$bg/stat ] && [ "$(sed 's/.*) //' /proc/$bg/stat | cut -c1)" != Z ]; then
		[ "$(cat /proc/$bg/comm)" = barebpf ] || fail "$what: pid $bg is $(cat /proc/$bg/comm), not barebpf"
		sid=$(sed 's/.*) //' /proc/$bg/stat | cut -d' ' -f4)
		[ "$sid" = $bg ] || fail "$what: the background pid $bg is in session $sid, not its own"
		diag "$what: background pid $bg holds $(ls /proc/$bg/fd | wc -l) fds, $(our_probes | wc -l) probes in kprobe_events"
		# another barebpf meanwhile: the probes the child still holds
		# are not stale ones it failed to remove
		env BAREBPF_KPROBES=tracefs barebpf funccount -d 0.5 vfs_read >$W/out2 2>$W/err2 ||
			fail "$what: a funccount during the background detach exited $?: $(cat $W/err2)"
		grep -q 'stale' $W/err2 && fail "$what: during the background detach: $(cat $W/err2)"
	else
		diag "$what: background pid $bg already done"
	fi
	# every barebpf gone (a zombie has closed its files): up to 300 s
	i=0
	while :; do
		alive=
		for p in /proc/[0-9]*; do
			[ "$(cat $p/comm 2>/dev/null)" = barebpf ] || continue
			grep -q '^State:[[:space:]]*Z' $p/status 2>/dev/null || alive="$alive ${p#/proc/}"
		done
		[ -z "$alive" ] && break
		[ $i -ge 600 ] && fail "$what: barebpf still running 300 s after the second SIGINT:$alive"
		sleep 0.5; i=$((i + 1))
	done
	diag "$what: the background detach ended within $((i / 2)) s"
	no_probes_left "$what, the background detach"
	no_stray_mount "$what, the background detach"
}

case "$R" in
4.1[7-9].*|4.[2-9][0-9].*|[5-9].*|[1-9][0-9].*)
	diag "tracepoints: from 4.17 funccount's are raw, their end waits for nothing" ;;
*)
	detach_in_background tracepoints barebpf funccount --max-probes 10000 't:*:*' ;;
esac
detach_in_background kprobes env BAREBPF_KPROBES=tracefs barebpf funccount --max-probes 10000 'proc_*'

# As pid 1 of a pid namespace (unshare -p -f) no child outlives the tool:
# the second SIGINT is answered, and the detach finishes in the foreground,
# leaving nothing.
command -v unshare >/dev/null || skip "no unshare for the pid namespace part"
start_tool unshare -p -f --mount-proc env BAREBPF_KPROBES=tracefs barebpf funccount --max-probes 10000 'proc_*'
wait_tracing 400
B=
for p in /proc/[0-9]*; do
	[ "$(cut -d' ' -f4 $p/stat 2>/dev/null)" = $TOOL_PID ] && B=${p#/proc/}
done
[ -n "$B" ] || fail "pidns: cannot find barebpf under unshare"
kill -INT $B
sleep 1
tool_exited && fail "pidns: the detach took less than 1 s: too fast to test"
kill -INT $B
wait_exit 300 "the second SIGINT (pidns)"
[ $RC = 0 ] || fail "pidns: exit $RC after the second SIGINT"
grep -q 'as pid 1 of its namespace' $W/err || fail "pidns: no 'as pid 1 of its namespace' line"
no_probes_left "pidns: the detach as pid 1"
no_stray_mount "pidns: the detach as pid 1"
pass
