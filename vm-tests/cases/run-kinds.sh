# Objects of other kinds on this kernel: const volatile settings and a
# __kconfig extern (a frozen .rodata map from 5.2, immediates before),
# bpf-to-bpf calls (4.16+; refused on 4.15 naming the function),
# bpf_trace_printk lines relayed, a bpf_load object with map-in-map and a
# kprobe/<N> tail-call slot loaded; the maps checked against a workload.
. /vmtest/lib.sh
need_tracefs
b=/vmtest/bpf
[ -f $b/btf_rodata.bpf.o ] || skip "$(cat $b/why 2>/dev/null || echo "no objects")"
# a shell that sleeps (context switches) until told to stop
sh -c "while [ ! -f $W/stop ]; do sleep 0.05; done" &
SLEEPER=$!

start_tool barebpf run -c target_tgid=$SLEEPER -c tag=9 $b/btf_rodata.bpf.o
wait_tracing 60 Running
sleep 1
stop_tool INT
[ $RC = 0 ] || fail "btf_rodata: exit $RC: $(cat $W/err)"
v=$(run_map_value $W/out out 0); [ "$v" = 81985529216486895 ] || fail "big read '$v'"
v=$(run_map_value $W/out out 1); [ "$v" = 9 ] || fail "tag (-c tag=9) read '$v'"
v=$(run_map_value $W/out out 3); [ "$v" = $SLEEPER ] || fail "tgid '$v', not $SLEEPER"
v=$(run_map_value $W/out out 2); [ -n "$v" ] && [ "$v" -gt 0 ] || fail "LINUX_KERNEL_VERSION read '$v'"
diag "btf_rodata: LINUX_KERNEL_VERSION $v"

start_tool barebpf run -c bb_tgid=$SLEEPER $b/calls.bpf.o
case $(uname -r) in
4.15.*)
	wait_exit 30 "calls on 4.15"
	[ $RC != 0 ] || fail "calls.bpf.o loaded on 4.15"
	grep -q "calls BPF function 'bump'.*need Linux 4.16" $W/err ||
		fail "calls on 4.15: $(cat $W/err)" ;;
*)
	wait_tracing 60 Running
	sleep 1
	stop_tool INT
	[ $RC = 0 ] || fail "calls: exit $RC: $(cat $W/err)"
	a=$(run_map_value $W/out hits 0); c=$(run_map_value $W/out hits 1)
	[ "$a" -gt 0 ] && [ "$c" -gt 0 ] && [ $((c % 2)) = 0 ] ||
		fail "calls counted '$a' and '$c'" ;;
esac

# with tracing off (the env case leaves it so) nothing is recorded: said
was_on=$(cat $T/tracing_on)
echo 0 >$T/tracing_on
start_tool barebpf run -c bb_tgid=$SLEEPER $b/printk.bpf.o
wait_tracing 60 Running
stop_tool INT
grep -q "tracing_on is 0: bpf_trace_printk lines are not recorded" $W/err ||
	fail "no warning with tracing_on 0: $(cat $W/err)"
echo 1 >$T/tracing_on
start_tool barebpf run -c bb_tgid=$SLEEPER $b/printk.bpf.o
wait_tracing 60 Running
sleep 1
stop_tool INT
echo $was_on >$T/tracing_on
[ $RC = 0 ] || fail "printk: exit $RC: $(cat $W/err)"
grep -q "^printk: .*bbtest printk 42" $W/out || fail "no printk line: $(head -c 300 $W/out)"

start_tool barebpf run -c bb_tgid=$SLEEPER $b/maps_bpfload.bpf.o
wait_tracing 60 Running
sleep 1
stop_tool INT
[ $RC = 0 ] || fail "maps_bpfload: exit $RC: $(cat $W/err)"
v=$(run_map_value $W/out counts $SLEEPER); [ -n "$v" ] && [ "$v" -gt 0 ] ||
	fail "maps_bpfload counted '$v'"
touch $W/stop
wait $SLEEPER
no_probes_left "SIGINT"
pass
