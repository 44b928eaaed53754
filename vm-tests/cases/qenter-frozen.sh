# qenter -D while three direct-I/O readers (17 ms per read) run and qfreezer
# rewrites queue/scheduler and queue/nr_requests: while a freeze drains one
# reader's read, the others' next bios wait milliseconds to enter nullb0.
. /vmtest/lib.sh
need_tracefs
C=2
qfreezer_setup

start_tool qenter -D
wait_tracing 120
DD=
for r in 1 2 3; do
	dd if=/dev/nullb0 of=/dev/null bs=4k iflag=direct count=100000 2>/dev/null &
	DD="$DD $!"
done
sleep 1
/bin/qfreezer $C || { kill $DD; restore; fail "qfreezer failed"; }
sleep 1
kill $DD; wait $DD 2>/dev/null
stop_tool INT
restore
[ $RC = 0 ] || fail "exit $RC after SIGINT"
diag "output: $(cat $W/out)"
awk '/^disk = / { d = $3; gsub(/'"'"'/, "", d); next } d == "nullb0"' $W/out >$W/nullb0
grep -qE '^ +usecs +: count +distribution' $W/nullb0 || fail "no 'disk = nullb0' section with a usecs histogram"
ms=$(awk '$2 == "->" && $4 == ":" && $1 >= 1024 { s += $5 } END { print s + 0 }' $W/nullb0)
diag "entries of 1 ms or more on nullb0: $ms"
[ "$ms" -ge $((2 * C)) ] || fail "$ms entries waited 1 ms or more on nullb0 during $((4 * C)) freezes"
pass
