# Another tool's kprobe survives our start, a SIGKILLed run's cleanup by the
# next start, and our exit.
. /vmtest/lib.sh
need_tracefs
echo 'p:othertool/keepme vfs_read' >>$T/kprobe_events || fail "cannot add othertool/keepme"
mine=$(grep othertool/keepme $T/kprobe_events)
check_mine() {
	now=$(grep othertool/keepme $T/kprobe_events)
	[ "$now" = "$mine" ] || fail "othertool/keepme changed $1: was '$mine', now '$now'"
}
start_traced_funclatency
check_mine "by our start"
stop_tool KILL
start_traced_funclatency
check_mine "by removing a dead run's probes"
stop_tool INT
check_mine "by our exit"
no_probes_left "SIGINT"
echo '-:othertool/keepme' >>$T/kprobe_events
pass
