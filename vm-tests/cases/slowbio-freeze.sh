# The article's story, on a disk slow enough to tell a freeze from a host
# stall (slow_disk: nullb1's reads take 1 s). A holder keeps a read in
# flight, and a prober starts a one-block read every 0.1 s in the
# background, so that submissions come at every phase of a freeze rather
# than in step with completions. queue-poker writes queue/scheduler and
# queue/nr_requests 4 times; each write freezes nullb1 until the reads in
# flight drain (up to 1 s), and a read submitted meanwhile waits in
# blk_queue_enter() inside generic_make_request / submit_bio_noacct.
# slowbio must show such waits of 500 ms or more (several) by dd on nullb1,
# and none of 500 ms in the same run without the writes: a busy host
# stalls the guest for 10-30 ms, an order of magnitude less.
. /vmtest/lib.sh
need_tracefs
slow_disk 1000
q=/sys/block/nullb1/queue
cat >$W/queue-poker <<EOP
#!/bin/sh
# what udev's rules did in the article: rewrite queue settings (from
# mq-deadline and 128 requests each write changes them)
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
SLOW=500000
# The I/O runs through both phases, started before any tracing: dd's
# start (fork, exec) under TCG would otherwise slow the first submissions.
dd if=/dev/nullb1 of=/dev/null bs=4k count=100000 iflag=direct 2>/dev/null &
HOLDER=$!
$W/prober &
PROBER=$!
# (on every exit: a FAIL must not leave the prober running into the next
# cases; the reads in flight end within a second)
stop_io() { kill $PROBER $HOLDER 2>/dev/null; wait $PROBER $HOLDER 2>/dev/null; sleep 1.2; }
trap stop_io EXIT
# run PHASE CMD: slowbio at 1 ms while CMD runs; the calls slower than
# $SLOW us go to $W/PHASE.slow
run() {
	start_tool barebpf slowbio -d nullb1 1000
	wait_tracing 60
	$2 || fail "$2 failed"
	stop_tool INT
	[ $RC = 0 ] || fail "$1: exit $RC after SIGINT"
	grep -q "^TIME(s) \+COMM \+PID \+LAT(us) \+DISK$" $W/out || fail "$1: no header line"
	grep -q "slowbio: [0-9]* slow calls printed, 0 lost" $W/err || fail "$1: $(cat $W/err)"
	awk '!/^Tracing/ && !/^TIME\(s\)/' $W/out >$W/$1.all
	awk -v s=$SLOW '$4 >= s' $W/$1.all >$W/$1.slow
	diag "$1: $(wc -l <$W/$1.all) calls >= 1 ms, $(wc -l <$W/$1.slow) >= $SLOW us; slowest $(awk '{ print $4 }' $W/$1.all | sort -n | tail -n 3 | tr '\n' ' ')us"
}
sleep 1.5
run quiet "sleep 4"
run frozen $W/queue-poker
stop_io
for ph in quiet frozen; do
	bad=$(awk '$4 < 1000 || $5 != "nullb1" || $2 != "dd"' $W/$ph.all | head -n 1)
	[ -z "$bad" ] || fail "$ph: not a dd call of >= 1 ms on nullb1: '$bad'"
done
[ ! -s $W/quiet.slow ] || fail "without freezes, a submission took >= $SLOW us: $(head -n 1 $W/quiet.slow)"
n=$(wc -l <$W/frozen.slow)
[ $n -ge 3 ] || fail "only $n submissions >= $SLOW us during 4 queue freezes"
slow_disk_off
pass
