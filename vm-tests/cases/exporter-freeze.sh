# barebpf exporter on a kprobe kernel: while three direct-I/O readers run
# on nullb0 and qfreezer rewrites its scheduler and nr_requests (4 freezes
# a round), a scrape over loopback (busybox wget) must count exactly those
# freezes in barebpf_queue_freezes_total{disk="nullb0"}, name qfreezer as
# the last freezer with the file of its last write (nr_requests), show the
# readers' bios waiting to enter the frozen queue and their latency;
# --textfile holds the same and is removed at exit; no probe is left.
. /vmtest/lib.sh
need_tracefs
C=2
qfreezer_setup
ifconfig lo 127.0.0.1 up 2>/dev/null || ip link set lo up 2>/dev/null
URL=http://127.0.0.1:19435/metrics

start_tool barebpf exporter --interval 1 --listen 127.0.0.1:19435 --textfile $W
wait_tracing 120 Exporting
grep -q 'freeze' $W/out || fail "the freeze collector is not on: $(cat $W/out)"
wget -q -O $W/m0 $URL || fail "no answer from $URL"
grep -q '^barebpf_collector_enabled{collector="freeze"} 1$' $W/m0 || fail "freeze collector off: $(grep collector_enabled $W/m0)"
b0=$(awk -F' ' '/^barebpf_queue_freezes_total\{disk="nullb0"\}/ { print $2 }' $W/m0)
# every disk from the first scrape, before any freeze (issue 32): a series
# born with its first count loses it to increase()
[ -n "$b0" ] || fail "no barebpf_queue_freezes_total{disk=\"nullb0\"} in the first scrape"
grep -q '^barebpf_queue_frozen_seconds_total{disk="nullb0"} ' $W/m0 || fail "no frozen seconds of nullb0 in the first scrape"
grep -q '^barebpf_queue_enter_wait_seconds_count{disk="nullb0"} ' $W/m0 || fail "no queue enter wait of nullb0 in the first scrape"
if grep -q '^barebpf_collector_enabled{collector="slowbio"} 1$' $W/m0; then
	grep -q '^barebpf_slow_bio_submissions_total{disk="nullb0"} ' $W/m0 || fail "no slow bio count of nullb0 in the first scrape"
fi
DD=
for r in 1 2 3; do
	dd if=/dev/nullb0 of=/dev/null bs=4k iflag=direct count=100000 2>/dev/null &
	DD="$DD $!"
done
sleep 1
/bin/qfreezer $C || { kill $DD; restore; fail "qfreezer failed"; }
sleep 1
kill $DD; wait $DD 2>/dev/null
sleep 2.5 # two renders
wget -q -O $W/m $URL || { restore; fail "no answer from $URL after the freezes"; }
cp $W/barebpf.prom $W/textfile 2>/dev/null
stop_tool INT
restore
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep '^barebpf_queue' $W/m | grep -v _bucket >$W/q
diag "$(tr '\n' ';' <$W/q)"
n=$(awk -F' ' '/^barebpf_queue_freezes_total\{disk="nullb0"\}/ { print $2 }' $W/m)
[ "$n" = $((${b0:-0} + 4 * C)) ] || fail "barebpf_queue_freezes_total{disk=\"nullb0\"} is '$n' after $((4 * C)) freezes (before: '${b0:-0}')"
grep -q '^barebpf_queue_last_freezer_info{disk="nullb0",comm="qfreezer",attr="nr_requests"} 1$' $W/m || fail "qfreezer, writing nr_requests, is not the last freezer of nullb0"
f=$(awk -F' ' '/^barebpf_queue_frozen_seconds_total\{disk="nullb0"\}/ { print ($2 > 0) }' $W/m)
[ "$f" = 1 ] || fail "no frozen time on nullb0"
w=$(awk -F' ' '/^barebpf_queue_enter_wait_seconds_count\{disk="nullb0"\}/ { print $2 }' $W/m)
[ "${w:-0}" -ge 1 ] || fail "no wait to enter nullb0's queue counted during $((4 * C)) freezes with readers"
l=$(awk -F' ' '/^barebpf_bio_latency_seconds_count\{disk="nullb0",op="read"\}/ { print $2 }' $W/m)
[ "${l:-0}" -ge 10 ] || fail "bio latency on nullb0 counts '$l' reads"
# Before 4.15 a tracepoint runs one program: qenter's and slowbio's both
# need block_bio_queue, so slowbio is left out, saying so in one line.
grep -q "^barebpf_collector_enabled{collector=\"qenter\"} 1\$" $W/m || fail "collector qenter off"
if ! grep -q "^barebpf_collector_enabled{collector=\"slowbio\"} 1\$" $W/m; then
	grep -q 'block_bio_queue: a program is already attached there (a kernel before 4.15 runs one program per tracepoint)' $W/err &&
		grep -q 'the slowbio collector is left out' $W/err || fail "collector slowbio off"
	case $(uname -r) in 4.[0-9].*|4.1[0-4].*) ;; *) fail "collector slowbio off on $(uname -r): $(cat $W/err)" ;; esac
fi
grep -q "^barebpf_queue_freezes_total{disk=\"nullb0\"} $n\$" $W/textfile || fail "the textfile does not say $n freezes"
[ -e $W/barebpf.prom ] && fail "the textfile is left after exit"
no_probes_left "SIGINT"
pass
