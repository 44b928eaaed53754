# Kernels with the perf kprobe PMU (4.17+): trace's kprobe and funclatency's
# kprobe + kretprobe (-M 2: a maxactive the PMU's default covers) are not
# in kprobe_events at all; they are live while the tool runs (the kernel's
# kprobes/list, exact counts) and gone with the process, even after
# SIGKILL, with nothing for the next run to clean.
. /vmtest/lib.sh
need_tracefs
have_kprobe_pmu || skip "no kprobe PMU (4.17+): kprobes go through kprobe_events (see hygiene-sigkill)"
need_kprobes_list
F=blk_mq_start_request
base=$(kprobes_on $F)

start_tool barebpf trace -j $F
wait_tracing 60
our_probes && fail "trace's kprobe is in kprobe_events: the PMU was not used"
[ $(kprobes_on $F) = $((base + 1)) ] || fail "trace's kprobe is not in $KLIST: $(grep $F $KLIST)"
workload
sleep 1
c=$(grep -c "\"func\":\"$F\"" $W/out)
[ "$c" = $N ] || fail "trace: $c events for $N reads"
stop_tool KILL
[ $(kprobes_on $F) = $base ] || fail "trace's kprobe still in $KLIST after SIGKILL: $(grep $F $KLIST)"
our_probes && fail "probes in kprobe_events after SIGKILL"

start_tool barebpf funclatency -M 2 -j $F
wait_tracing 60
our_probes && fail "funclatency's probes are in kprobe_events: the PMU was not used"
[ $(kprobes_on $F) = $((base + 2)) ] || fail "funclatency's kprobe and kretprobe are not in $KLIST: $(grep $F $KLIST)"
workload
stop_tool INT
c=$(json_count $W/out)
[ "$c" = $N ] || fail "funclatency: count '$c' for $N reads"
grep -q warning $W/err && fail "a warning: $(cat $W/err)"
[ $(kprobes_on $F) = $base ] || fail "funclatency's probes still in $KLIST after SIGINT"

start_tool barebpf funclatency -M 2 -j $F
wait_tracing 60
[ $(kprobes_on $F) = $((base + 2)) ] || fail "funclatency's probes are not in $KLIST"
stop_tool KILL
[ $(kprobes_on $F) = $base ] || fail "funclatency's probes still in $KLIST after SIGKILL: $(grep $F $KLIST)"
our_probes && fail "probes in kprobe_events after SIGKILL"
pass
