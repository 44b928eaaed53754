# breakdown of the bio submission function while the queue is frozen:
# slowbio-freeze's setup (slow_disk: nullb1's reads take 1 s; a read always
# in flight, a one-block read started every 0.1 s, queue-poker's 4 writes
# to scheduler and nr_requests), with MAIN = generic_make_request /
# submit_bio_noacct and its children on the way to the queue (the names of
# every kernel: those this one lacks are skipped). With the writes, the
# slow submissions (500 ms and more, 20-100 times a TCG stall) must be
# there, each with the queue-enter child taking nearly all of its time;
# in the same run without the writes, none.
. /vmtest/lib.sh
need_tracefs
slow_disk 1000
q=/sys/block/nullb1/queue
cat >$W/queue-poker <<EOP
#!/bin/sh
for w in "none scheduler" "mq-deadline scheduler" "32 nr_requests" "64 nr_requests"; do
	echo \${w% *} >$q/\${w#* } || exit 1
	sleep 0.3
done
EOP
cat >$W/prober <<EOP
#!/bin/sh
i=0
while :; do
	dd if=/dev/nullb1 of=/dev/null bs=4k count=1 skip=\$((i % 1000)) iflag=direct 2>/dev/null &
	i=\$((i + 1))
	sleep 0.1
done
EOP
chmod +x $W/queue-poker $W/prober
MAIN=submit_bio_noacct
grep -qw submit_bio_noacct $T/available_filter_functions || MAIN=generic_make_request
QE='blk_queue_enter|__bio_queue_enter'
dd if=/dev/nullb1 of=/dev/null bs=4k count=100000 iflag=direct 2>/dev/null &
HOLDER=$!
$W/prober &
PROBER=$!
stop_io() { kill $PROBER $HOLDER 2>/dev/null; wait $PROBER $HOLDER 2>/dev/null; sleep 1.2; }
trap stop_io EXIT
# run PHASE CMD: records of 500 ms and more while CMD runs, in $W/PHASE
run() {
	start_tool barebpf breakdown -m -t 500ms $MAIN blk_queue_enter __bio_queue_enter \
		blk_mq_make_request blk_mq_submit_bio blk_mq_get_request blk_mq_get_new_requests
	wait_tracing 60
	$2 || fail "$2 failed"
	stop_tool INT
	[ $RC = 0 ] || fail "$1: exit $RC after SIGINT"
	cp $W/out $W/$1
	grep -q "^$MAIN: [0-9]* calls, [0-9]* of them at least 500.000 ms" $W/$1 || fail "$1: no summary"
	diag "$1: $(grep "^$MAIN: " $W/$1)"
}
sleep 1.5
run quiet "sleep 4"
run frozen $W/queue-poker
stop_io
calls=$(sed -n "s/^$MAIN: \([0-9]*\) calls.*/\1/p" $W/quiet)
[ "$calls" -ge 20 ] || fail "quiet: only '$calls' calls of $MAIN seen (the prober makes 40)"
grep -q "^$MAIN: [0-9]* calls, 0 of them" $W/quiet || fail "without freezes, a submission took >= 500 ms: $(grep -A8 '^[0-9][0-9]:' $W/quiet | head -n 12)"
grep '^[0-9][0-9]:' $W/quiet && fail "quiet: a record printed"
# per record: MAIN's time, the queue-enter child's share, the sum of the
# direct children's totals (rows indented by exactly 4 spaces)
awk -v qe="^($QE)\$" '
	function done() { if (dur != "") print dur, share + 0, sum }
	/^[0-9][0-9]:/ { done(); dur = $5; share = 0; sum = 0; next }
	/^    / && NF == 5 && $1 ~ qe { share = $4 }
	/^    [^ ]/ && NF == 5 && $1 != "FUNCTION" { sum += $3 }
	/^$/ { done(); dur = "" }
	END { done() }' $W/frozen >$W/rec
diag "frozen records (ms, queue-enter share %, direct children ms): $(tr '\n' ';' <$W/rec)"
n=$(wc -l <$W/rec)
[ $n -ge 3 ] || fail "only $n records of >= 500 ms during 4 queue freezes"
nq=$(awk '$2 >= 90' $W/rec | wc -l)
[ $nq -ge 3 ] || fail "only $nq of $n slow submissions spent 90% or more in $QE"
bad=$(awk '$1 < 500 || $3 > $1 + 0.001' $W/rec | head -n 1)
[ -z "$bad" ] || fail "a record below the threshold or with children longer than MAIN: $bad"
grep -q "time per slow $MAIN call" $W/frozen || fail "no histogram in the summary"
slow_disk_off
pass
