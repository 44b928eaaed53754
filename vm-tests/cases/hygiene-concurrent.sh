# Two runs at once: the second one's start (which removes dead runs' probes)
# leaves the live first run's probes alone, and both count exactly N.
. /vmtest/lib.sh
need_tracefs
start_traced_funclatency -j
A=$TOOL_PID; cp $W/probes $W/probes.a; mv $W/out $W/out.a; mv $W/err $W/err.a
start_traced_funclatency -j
B=$TOOL_PID
grep -Fxf $W/probes.a $T/kprobe_events >$W/still
cmp -s $W/still $W/probes.a || { TOOL_PID=$A; cleanup; fail "the second start removed the live first run's probes"; }
workload
stop_tool INT
[ $RC = 0 ] || { TOOL_PID=$A; cleanup; fail "second run: exit $RC after SIGINT"; }
c=$(json_count $W/out)
mv $W/out $W/out.b; mv $W/err $W/err.b; mv $W/out.a $W/out; mv $W/err.a $W/err
TOOL_PID=$A
stop_tool INT
[ $RC = 0 ] || fail "first run: exit $RC after SIGINT"
[ "$c" = $N ] || fail "second run: count '$c' for $N reads"
c=$(json_count $W/out)
[ "$c" = $N ] || fail "first run: count '$c' for $N reads"
no_probes_left "both runs"
pass
