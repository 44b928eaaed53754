# After SIGKILL our probes stay behind; the next start removes them, and
# that run leaves nothing either.
. /vmtest/lib.sh
need_tracefs
start_traced_funclatency
cp $W/probes $W/stale
stop_tool KILL
our_probes >/dev/null || fail "no leftovers after SIGKILL (expected the dead run's probes)"
start_traced_funclatency
grep -Fxf $W/stale $T/kprobe_events >$W/still &&
	fail "the next start left the dead run's probes: $(tr '\n' ';' <$W/still)"
stop_tool INT
no_probes_left "SIGINT of the second run"
pass
