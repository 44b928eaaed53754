# freeze started in the middle of a storm, as a user would during an
# incident: a helper, storm, rewrites nullb0's queue/scheduler and
# queue/nr_requests every 0.3 s while a direct-I/O reader runs (17 ms a
# read: each write freezes the queue until the read in flight drains), and
# it is already at it when freeze starts. Every write that storm starts
# after freeze printed its Tracing line must be one record, by storm, on
# nullb0; the write in flight when that line came may be one too, and so
# may the writes made while freeze was starting (its probes attach one by
# one before it says Tracing: on riscv64 6.12 under emulation two writes
# fell in that window and were rightly recorded). Writes before freeze was
# started must not be. Nothing
# may stay frozen. Three rounds: freeze is started three times into the
# same storm, each time for 8 writes. (The attach used to race the storm:
# a freeze that began between the attach of the start probe and of the end
# probe left the queue "frozen" for good, and no record came at all; seen
# on 5.10 from outside.)
. /vmtest/lib.sh
need_tracefs
qfreezer_setup
AFTER=8
ROUNDS=3
# storm: before each write, note whether this round's freeze has said
# Tracing yet ("after"), or has been started ("starting", $W/starting holds
# the round), or neither ("before"); after AFTER "after" writes, wait for
# the next round
cat >/bin/storm <<EOF
#!/bin/sh
i=0 r=1 after=0
while [ \$r -le $ROUNDS ] && [ \$i -lt 1000 ]; do
	if [ \$after = $AFTER ]; then
		echo "done \$r" >>$W/storm.log
		while [ "\$(cat $W/round)" = \$r ]; do sleep 0.1; done
		r=\$((r + 1)) after=0
		continue
	fi
	if grep -q Tracing $W/err 2>/dev/null; then
		echo "after \$r \$i" >>$W/storm.log; after=\$((after + 1))
	elif [ "\$(cat $W/starting)" = \$r ]; then
		echo "starting \$r \$i" >>$W/storm.log
	else
		echo "before \$r \$i" >>$W/storm.log
	fi
	# as qfreezer: each write changes the setting (5.x resets
	# nr_requests to 64 with "none", 128 with mq-deadline), so each
	# freezes the queue once
	case \$((i % 4)) in
	0) echo mq-deadline >$Q/scheduler ;;
	1) echo none >$Q/scheduler ;;
	2) echo 32 >$Q/nr_requests ;;
	3) echo 64 >$Q/nr_requests ;;
	esac || echo "failed \$r \$i" >>$W/storm.log
	i=\$((i + 1))
	sleep 0.3
done
EOF
chmod +x /bin/storm
: >$W/err; : >$W/storm.log; echo 1 >$W/round; echo 0 >$W/starting
dd if=/dev/nullb0 of=/dev/null bs=4k iflag=direct count=1000000 2>/dev/null &
DD=$!
/bin/storm &
ST=$!
# a FAIL must not leave the storm running into the next cases
stop_all() { kill $ST $DD 2>/dev/null; wait $ST $DD 2>/dev/null; restore; }
trap stop_all EXIT
r=1
while [ $r -le $ROUNDS ]; do
	sleep 1
	echo $r >$W/starting
	start_tool barebpf freeze -j --no-stack
	wait_tracing 120
	i=0
	while ! grep -q "^done $r$" $W/storm.log; do
		[ $i -lt 600 ] || fail "round $r: storm made no $AFTER writes after the Tracing line in 60 s"
		sleep 0.1; i=$((i + 1))
	done
	sleep 0.5
	stop_tool INT
	[ $RC = 0 ] || fail "round $r: exit $RC after SIGINT"
	mv $W/out $W/out.$r; mv $W/err $W/err.$r; : >$W/err
	r=$((r + 1))
	echo $r >$W/round
done
wait $ST
stop_all
! grep -q failed $W/storm.log || fail "storm could not write: $(grep failed $W/storm.log | head -n 1)"
r=1
while [ $r -le $ROUNDS ]; do
	before=$(grep -c "^before $r " $W/storm.log)
	starting=$(grep -c "^starting $r " $W/storm.log)
	after=$(grep -c "^after $r " $W/storm.log)
	grep -v '"summary"' $W/out.$r >$W/records
	mine=$(grep -c '"comm":"storm","pid":[0-9]*,"tid":[0-9]*,"disk":"nullb0",' $W/records)
	all=$(grep -c . $W/records)
	diag "round $r: storm wrote $before times before freeze started, $starting while it started, $after after its Tracing line; records: $mine by storm on nullb0, $all in all; $(grep '"summary"' $W/out.$r)"
	[ $((before + starting)) -ge 2 ] || fail "round $r: only $((before + starting)) writes before freeze traced: the storm was not running yet"
	[ "$after" = $AFTER ] || fail "round $r: storm logged $after writes after the Tracing line, not $AFTER"
	[ "$all" = "$mine" ] || fail "round $r: records not by storm on nullb0: $(grep -v '"comm":"storm"' $W/records | head -n 1)"
	[ "$mine" -ge "$after" ] || fail "round $r: $mine records for the $after writes after the Tracing line"
	[ "$mine" -le $((after + starting + 1)) ] || fail "round $r: $mine records for $after writes after the Tracing line, $starting while freeze started and one in flight"
	! grep -q still_frozen $W/out.$r || fail "round $r: a queue still frozen at exit: $(grep still_frozen $W/out.$r)"
	grep -q '"lost":0}$' $W/out.$r || fail "round $r: records lost: $(grep '"summary"' $W/out.$r)"
	r=$((r + 1))
done
pass
