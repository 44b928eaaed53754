# Nothing of ours left in kprobe_events after SIGTERM.
. /vmtest/lib.sh
need_tracefs
start_traced_funclatency
workload 10
stop_tool TERM
diag "exit status $RC after SIGTERM"
no_probes_left SIGTERM
pass
