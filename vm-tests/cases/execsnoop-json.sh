# barebpf execsnoop -j --max-args 3 -M 6: a process forked before the
# tool started execs after it (its parent read from /proc: ppid_from
# "proc", this shell), then a script execs /bin/echo 5 times with 5
# arguments (parent from the fork, 3 arguments, truncated); the tool exits
# by itself after the 6th.
. /vmtest/lib.sh
need_tracefs
M=bbj$$m
rm -f $W/go
sh -c "while [ ! -f $W/go ]; do sleep 0.1; done; exec /bin/sh -c 'sleep 1 # $M-early'" &
EARLY=$!
start_tool barebpf execsnoop -j -l $M --max-args 3 -M 6
wait_tracing 60
touch $W/go
sleep 0.5
sh -c "for i in 1 2 3 4 5; do /bin/echo bbj$$\"m\"-\$i a b c d >/dev/null; done" &
SP=$!
wait $SP
wait_exit 30 "-M 6"
[ $RC = 0 ] || fail "exit $RC"
wait $EARLY
n=$(grep -c "$M" $W/out)
[ "$n" = 6 ] || fail "$n lines, expected 6"
grep -q "\"pid\":$EARLY,\"ppid\":$$,\"ppid_from\":\"proc\",.*\"args\":\[\"/bin/sh\",\"-c\",\"sleep 1 # $M-early\"\],\"truncated\":false}" $W/out ||
	fail "the early exec: $(grep early $W/out)"
# each echo once, in any order: the rings are read one CPU after the
# other, so two execs on two CPUs may come out of order (seen on 4.15)
for i in 1 2 3 4 5; do
	c=$(sed -n '2,6p' $W/out | grep -c "\"comm\":\"echo\",.*\"ppid\":$SP,\"ppid_from\":\"fork\",\"uid\":0,\"ret\":0,\"args\":\[\"/bin/echo\",\"$M-$i\",\"a\"\],\"truncated\":true}")
	[ "$c" = 1 ] || fail "exec $i: $c lines: $(grep "$M-$i\"" $W/out)"
done
grep -q "execsnoop: 6 execs printed, 0 lost" $W/err || fail "no '6 execs printed, 0 lost' on stderr"
pass
