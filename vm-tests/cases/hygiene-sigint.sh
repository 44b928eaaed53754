# Nothing of ours left in kprobe_events after SIGINT.
. /vmtest/lib.sh
need_tracefs
start_traced_funclatency
workload 10
stop_tool INT
diag "exit status $RC after SIGINT"
no_probes_left SIGINT
pass
