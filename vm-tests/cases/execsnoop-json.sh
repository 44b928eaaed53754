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
head -n 1 $W/out | grep -q "\"pid\":$EARLY,\"ppid\":$$,\"ppid_from\":\"proc\",.*\"args\":\[\"/bin/sh\",\"-c\",\"sleep 1 # $M-early\"\],\"truncated\":false}" ||
	fail "the early exec: $(head -n 1 $W/out)"
i=1
for l in 2 3 4 5 6; do
	sed -n ${l}p $W/out | grep -q "\"comm\":\"echo\",.*\"ppid\":$SP,\"ppid_from\":\"fork\",\"uid\":0,\"ret\":0,\"args\":\[\"/bin/echo\",\"$M-$i\",\"a\"\],\"truncated\":true}" ||
		fail "exec $i: $(sed -n ${l}p $W/out)"
	i=$((i + 1))
done
grep -q "execsnoop: 6 execs printed, 0 lost" $W/err || fail "no '6 execs printed, 0 lost' on stderr"
pass
