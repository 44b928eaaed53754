# barebpf run on vmtest_count.bpf.o as clang 6/7 wrote it (NOTYPE size-0
# function symbols, e_machine 0: made by tests/tools/oldform.c): the same
# exact counts as run-object.
. /vmtest/lib.sh
need_tracefs
o=/vmtest/bpf/vmtest_count_old.bpf.o
[ -f $o ] || skip "$(cat /vmtest/bpf/why 2>/dev/null || echo "no $o")"
start_tool barebpf run $o
wait_tracing 60 Running
workload
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
for s in "0 kprobe/blk_mq_start_request" "1 kretprobe/blk_mq_start_request" "2 tracepoint/block/block_rq_complete"; do
	v=$(run_map_value $W/out counts ${s%% *})
	[ "$v" = $N ] || fail "${s#* } counted '$v' for $N reads"
done
no_probes_left "SIGINT"
pass
