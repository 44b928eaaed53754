# A run in its own PID namespace (a container) is killed with SIGKILL: its
# probes stay behind, named after its namespace. A later run on the host
# (the initial namespace, which sees every process) finds that no process is
# left in that namespace and removes them; a live namespaced run's probes are
# never touched. (The live run starts first: once a namespace is gone the
# kernel may give its inode number to the next one.)
. /vmtest/lib.sh
need_tracefs
pidns_start live ns
our_probes >$W/live
[ -s $W/live ] || fail "no probes from the live namespaced run"
pidns_start dead ns
our_probes | grep -vFxf $W/live >$W/dead
[ -s $W/dead ] || fail "no probes from the second namespaced run"
kill -KILL $PID_dead
TOOL_PID=$U_dead
wait_exit 30 "SIGKILL"
grep -Fxf $W/dead $T/kprobe_events >/dev/null || fail "no leftovers after SIGKILL (expected the dead run's probes)"
start_traced_funclatency
grep -Fxf $W/dead $T/kprobe_events >$W/still &&
	fail "the host run left the dead namespace's probes: $(tr '\n' ';' <$W/still)"
grep -Fxf $W/live $T/kprobe_events >$W/kept
cmp -s $W/kept $W/live || fail "the host run removed the live namespaced run's probes"
stop_tool INT
[ $RC = 0 ] || fail "host run: exit $RC after SIGINT"
pidns_stop live
[ $RC = 0 ] || fail "namespaced run: exit $RC after SIGINT"
no_probes_left "all runs"
pass
