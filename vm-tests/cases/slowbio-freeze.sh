# The article's story: four direct-I/O readers on nullb0 (17 ms a read,
# started a few ms apart so that their reads are in flight at different
# phases) and a helper, queue-poker, that writes queue/scheduler and
# queue/nr_requests 16 times. Each write freezes the queue until in-flight
# reads drain; a reader submitting meanwhile waits in blk_queue_enter()
# inside generic_make_request / submit_bio_noacct. slowbio must show such
# waits (>= 10 ms, several) by the readers on nullb0, and none >= 10 ms
# in the same run without the helper.
. /vmtest/lib.sh
need_tracefs
q=/sys/block/nullb0/queue
old_sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $q/scheduler)
old_nr=$(cat $q/nr_requests)
cat >$W/queue-poker <<EOP
#!/bin/sh
# what udev's rules did in the article: rewrite queue settings
i=0
while [ \$i -lt 4 ]; do
	sleep 0.25; echo none >$q/scheduler
	sleep 0.25; echo mq-deadline >$q/scheduler
	sleep 0.25; echo 32 >$q/nr_requests
	sleep 0.25; echo 64 >$q/nr_requests
	i=\$((i + 1))
done
EOP
chmod +x $W/queue-poker
SLOW=10000
# The readers run through both phases, started before any tracing: dd's
# start (fork, exec) under TCG would otherwise slow the first submissions.
READERS=
for k in 0 1 2 3; do
	dd if=/dev/nullb0 of=/dev/null bs=4k count=100000 skip=$((k * 1000)) iflag=direct 2>/dev/null &
	READERS="$READERS $!"
	sleep 0.004
done
for p in $READERS; do echo $p; done >$W/pids
stop_readers() { kill $READERS 2>/dev/null; wait $READERS 2>/dev/null; }
# run PHASE CMD: slowbio at 1 ms while CMD runs; the calls slower than
# $SLOW us go to $W/PHASE.slow
run() {
	start_tool barebpf slowbio -d nullb0 1000
	wait_tracing 60
	$2 || { stop_readers; fail "$2 failed"; }
	stop_tool INT
	[ $RC = 0 ] || { stop_readers; fail "$1: exit $RC after SIGINT"; }
	grep -q "^TIME(s) \+COMM \+PID \+LAT(us) \+DISK$" $W/out || { stop_readers; fail "$1: no header line"; }
	grep -q "slowbio: [0-9]* slow calls printed, 0 lost" $W/err || { stop_readers; fail "$1: $(cat $W/err)"; }
	awk '!/^Tracing/ && !/^TIME\(s\)/' $W/out >$W/$1.all
	awk -v s=$SLOW '$4 >= s' $W/$1.all >$W/$1.slow
	diag "$1: $(wc -l <$W/$1.all) calls >= 1 ms, $(wc -l <$W/$1.slow) >= $SLOW us; slowest $(awk '{ print $4 }' $W/$1.all | sort -n | tail -n 3 | tr '\n' ' ')us"
}
sleep 0.3
run quiet "sleep 4"
run frozen $W/queue-poker
stop_readers
echo $old_sched >$q/scheduler; echo $old_nr >$q/nr_requests
for ph in quiet frozen; do
	bad=$(awk 'NR == FNR { p[$1] = 1; next } $4 < 1000 || $5 != "nullb0" || $2 != "dd" || !($3 in p)' $W/pids $W/$ph.all | head -n 1)
	[ -z "$bad" ] || fail "$ph: not a reader's call of >= 1 ms on nullb0: '$bad'"
done
[ ! -s $W/quiet.slow ] || fail "without freezes, a submission took >= $SLOW us: $(head -n 1 $W/quiet.slow)"
n=$(wc -l <$W/frozen.slow)
[ $n -ge 3 ] || fail "only $n submissions >= $SLOW us during 16 queue freezes"
pass
