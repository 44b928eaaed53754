# qenter -D while nullb1's queue is frozen and a freeze drains reads that
# take 1 s (slow_disk): a holder keeps a read in flight and a prober starts
# a one-block read every 0.1 s, so that bios arrive at every phase of a
# freeze (readers in step with the completions would arrive after each
# drain and hardly wait); queue-poker writes queue/scheduler and
# queue/nr_requests 4 times. A bio that arrives while a freeze drains waits
# in blk_queue_enter (__bio_queue_enter from 5.15) until the reads in flight
# are done: up to 1 s. qenter must show several waits of 262 ms or more on
# nullb1; qenter-idle shows none on the same disk without the writes (a
# busy host stalls the guest for 10-30 ms, an order of magnitude less).
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
dd if=/dev/nullb1 of=/dev/null bs=4k count=100000 iflag=direct 2>/dev/null &
HOLDER=$!
$W/prober &
PROBER=$!
# (on every exit: a FAIL must not leave readers or nullb1 to the next cases)
stop_io() {
	kill $PROBER $HOLDER 2>/dev/null; wait $PROBER $HOLDER 2>/dev/null; sleep 1.2
	[ -n "$SLOW_D" ] && slow_disk_off
}
trap stop_io EXIT
sleep 1.5
start_tool barebpf qenter -D
wait_tracing 120
$W/queue-poker || fail "queue-poker failed"
sleep 1.2
stop_tool INT
kill $PROBER $HOLDER 2>/dev/null; wait $PROBER $HOLDER 2>/dev/null
[ $RC = 0 ] || fail "exit $RC after SIGINT"
diag "output: $(cat $W/out)"
awk '/^disk = / { d = $3; gsub(/'"'"'/, "", d); next } d == "nullb1"' $W/out >$W/nullb1
grep -qE '^ +usecs +: count +distribution' $W/nullb1 || fail "no 'disk = nullb1' section with a usecs histogram"
long=$(awk '$2 == "->" && $4 == ":" && $1 >= 262144 { s += $5 } END { print s + 0 }' $W/nullb1)
diag "entries of 262 ms or more on nullb1: $long"
[ "$long" -ge 3 ] || fail "only $long entries waited 262 ms or more on nullb1 during 4 freezes"
pass
