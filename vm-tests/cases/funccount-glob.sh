# vmtest-timeout: 400
# funccount -j -v 'blk_mq_*' (a hundred or more functions), SIGINT: every
# match attached or its failure counted, blk_mq_start_request counted
# exactly N among them; attach and detach rates printed (-v: probes/s);
# nothing left: through the kprobe PMU (its probes in debugfs kprobes/list,
# gone after exit) where the kernel has it, and through kprobe_events.
. /vmtest/lib.sh
need_tracefs
need_kprobes_list
F=blk_mq_start_request
base=$(wc -l <$KLIST)
for way in pmu tracefs; do
	if [ $way = pmu ]; then
		have_kprobe_pmu || { diag "no kprobe PMU (4.17+)"; continue; }
		start_tool barebpf funccount -j -v 'blk_mq_*'
	else
		start_tool env BAREBPF_KPROBES=tracefs barebpf funccount -j -v 'blk_mq_*'
	fi
	wait_tracing 300
	n=$(sed -n 's/^Tracing \([0-9]*\) functions.*/\1/p' $W/err)
	[ -n "$n" ] && [ "$n" -ge 50 ] || fail "$way: traced '$n' functions of blk_mq_*"
	live=$(($(wc -l <$KLIST) - base))
	[ "$live" = "$n" ] || fail "$way: $live probes in $KLIST for $n functions traced"
	inev=$(our_probes | wc -l)
	if [ $way = pmu ]; then
		[ "$inev" = 0 ] || fail "pmu: $inev probes in kprobe_events"
	else
		[ "$inev" = "$n" ] || fail "tracefs: $inev probes in kprobe_events for $n functions"
	fi
	workload
	sleep 1
	stop_tool INT 300
	[ $RC = 0 ] || fail "$way: exit $RC after SIGINT"
	diag "$way: $(grep -E 'probes/s|detached|could not' $W/err | tr '\n' ';')"
	c=$(json_flat $W/out | grep -o "\"func\":\"$F\",\"count\":[0-9]*" | cut -d: -f3)
	[ "$c" = $N ] || fail "$way: $F counted '$c' times for $N reads"
	[ $(wc -l <$KLIST) = $base ] || fail "$way: probes left in $KLIST: $(($(wc -l <$KLIST) - base))"
	no_probes_left "$way SIGINT"
done
pass
