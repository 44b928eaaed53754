# The article's story: a direct-I/O reader on nullb0 (17 ms per read) while
# a script named qfreezer rewrites queue/scheduler and queue/nr_requests.
# freeze -j must report each of its 4*C freezes, by qfreezer, on nullb0,
# from its file (attr scheduler or nr_requests, each 2*C in the summary),
# frozen about as long as the drain took, with stacks through
# elv_iosched_store (scheduler) or queue_requests_store (nr_requests), or,
# where queue_attr_store freezes around every store method (6.12), through
# queue_attr_store itself.
. /vmtest/lib.sh
need_tracefs
C=2
qfreezer_setup
freeze_calibrate

start_tool barebpf freeze -j
wait_tracing 120
dd if=/dev/nullb0 of=/dev/null bs=4k iflag=direct count=100000 2>/dev/null &
DD=$!
sleep 1
/bin/qfreezer $C || { kill $DD; restore; fail "qfreezer failed"; }
sleep 1
kill $DD; wait $DD 2>/dev/null
stop_tool INT
restore
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep '"comm":' $W/out >$W/rec
diag "first record: $(head -n 1 $W/rec)"
diag "summary: $(grep '"summary"' $W/out)"
n=$(grep -c '"comm":"qfreezer"' $W/rec)
[ "$n" = $((4 * C)) ] || fail "$n freezes by qfreezer, expected $((4 * C)) (4 writes x $C)"
o=$(grep -vc '"comm":"qfreezer"' $W/rec)
[ "$o" = 0 ] || fail "$o freezes by other tasks"
d=$(grep -c '"disk":"nullb0"' $W/rec)
[ "$d" = $((4 * C)) ] || fail "$d of $((4 * C)) freezes on nullb0"
# each record names the queue/ file written (also where queue_attr_store
# freezes for every file and the stacks look alike)
as=$(grep -c '"disk":"nullb0","attr":"scheduler","frozen_us":' $W/rec)
an=$(grep -c '"disk":"nullb0","attr":"nr_requests","frozen_us":' $W/rec)
[ "$as" = $((2 * C)) ] && [ "$an" = $((2 * C)) ] ||
	fail "$as records with attr scheduler and $an with nr_requests, expected $((2 * C)) each"
e=$(grep -c 'elv_iosched_store+0x' $W/rec)
r=$(grep -c 'queue_requests_store+0x' $W/rec)
a=$(grep -c 'queue_attr_store+0x' $W/rec)
if [ "$STORE_FREEZES" = 1 ]; then
	[ "$e$r" = 00 ] && [ "$a" = $((4 * C)) ] ||
		fail "$e stacks through elv_iosched_store, $r through queue_requests_store, $a through queue_attr_store: expected 0, 0, $((4 * C)) where queue_attr_store freezes"
else
	[ "$e" = $((2 * C)) ] || fail "$e stacks through elv_iosched_store, expected $((2 * C))"
	[ "$r" = $((2 * C)) ] || fail "$r stacks through queue_requests_store, expected $((2 * C))"
	# and the name agrees with the store method in the stack
	es=$(grep '"attr":"scheduler"' $W/rec | grep -c 'elv_iosched_store+0x')
	rn=$(grep '"attr":"nr_requests"' $W/rec | grep -c 'queue_requests_store+0x')
	[ "$es$rn" = $((2 * C))$((2 * C)) ] ||
		fail "$es scheduler records through elv_iosched_store, $rn nr_requests records through queue_requests_store, expected $((2 * C)) each"
fi
# frozen >= drain, and the rest (the switch itself) small next to the
# 17 ms drain: in the median freeze (a busy host stalls the guest in a
# few for 100 ms and more); at least one drain waited for a read in flight
sed 's/.*"frozen_us":\([0-9]*\),"drain_us":\([0-9null]*\),.*/\1 \2/' $W/rec >$W/times
diag "frozen/drain us: $(tr '\n' ';' <$W/times)"
bad=$(awk '$2 == "null" || $2 > $1' $W/times | wc -l)
[ "$bad" = 0 ] || fail "$bad freezes without a drain, or frozen for less than the drain"
rest=$(awk '{ print $1 - $2 }' $W/times | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
[ "$rest" -le 40000 ] || fail "in the median freeze the queue stayed frozen $rest us longer than the drain"
long=$(awk '$2 >= 1000' $W/times | wc -l)
[ "$long" -ge 1 ] || fail "no drain took 1 ms or more with a 17 ms read in flight"
grep -q '"summary":{"freezes":'$((4 * C)) $W/out || fail "summary does not count $((4 * C)) freezes"
grep -q '"disks":\[{"disk":"nullb0","freezes":'$((4 * C)) $W/out || fail "summary has no nullb0 line with $((4 * C)) freezes"
grep -q '"attrs":\[.*{"attr":"scheduler","freezes":'$((2 * C))',' $W/out || fail "summary has no scheduler line with $((2 * C)) freezes"
grep -q '"attrs":\[.*{"attr":"nr_requests","freezes":'$((2 * C))',' $W/out || fail "summary has no nr_requests line with $((2 * C)) freezes"
grep -q '"lost":0}' $W/out || fail "records lost"
pass
