# freeze -j --no-stack -d nullb0 --duration with a direct-I/O reader and no
# freeze: no record, a summary of 0 freezes, nothing left in kprobe_events.
. /vmtest/lib.sh
need_tracefs
start_tool barebpf freeze -j --no-stack -d nullb0 --duration 4
wait_tracing 120
workload 60
wait_exit 60 "--duration 4"
[ $RC = 0 ] || fail "exit $RC"
diag "output: $(cat $W/out)"
n=$(grep -c '"comm":' $W/out)
[ "$n" = 0 ] || fail "$n freeze records without a freeze"
grep -q '{"summary":{"freezes":0,"frozen_us":0,"healed":0,"unseen":0,"disks":\[\],"attrs":\[\],"stacks":\[\]},"lost":0}' $W/out ||
	fail "no empty summary line"
no_probes_left "exit"
pass
