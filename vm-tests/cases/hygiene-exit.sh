# Nothing of ours left in kprobe_events after a normal exit (--duration).
. /vmtest/lib.sh
need_tracefs
start_traced_funclatency --duration 3
workload 10
wait_exit 60 "--duration 3"
[ $RC = 0 ] || fail "exit $RC"
no_probes_left "a normal exit"
pass
