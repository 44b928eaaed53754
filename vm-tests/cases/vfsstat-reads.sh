# vfsstat -j 1 while busybox dd makes N one-byte reads and writes (one
# vfs_read and one vfs_write each): the READ and WRITE counts of the
# intervals add up to N, plus at most a little of the guest's own work, and
# the intervals that hold dd's reads are adjacent and no more than its
# run took seconds, plus one on each side (the rates follow the workload
# within one interval; arm64 under TCG takes about 4 s for it).
. /vmtest/lib.sh
need_tracefs
M=20000
start_tool barebpf vfsstat -j 1
wait_tracing 60
t0=$(date +%s)
dd if=/dev/zero of=/dev/null bs=1 count=$M 2>/dev/null || fail "dd failed"
t1=$(date +%s)
sleep 2.5
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
lines=$(grep -c '^{"time":' $W/out)
[ "$lines" -ge 2 ] || fail "$lines JSON lines"
reads=$(grep -o '"READ":[0-9]*' $W/out | cut -d: -f2 | tr '\n' ' ')
writes=$(grep -o '"WRITE":[0-9]*' $W/out | cut -d: -f2 | tr '\n' ' ')
diag "reads per interval: $reads; writes: $writes"
r=$(echo $reads | tr ' ' '\n' | awk '{ s += $1 } END { print s + 0 }')
w=$(echo $writes | tr ' ' '\n' | awk '{ s += $1 } END { print s + 0 }')
[ $r -ge $M ] && [ $r -le $((M + 500)) ] || fail "$r reads counted for dd's $M"
[ $w -ge $M ] && [ $w -le $((M + 500)) ] || fail "$w writes counted for dd's $M"
# first and last interval with 100 reads or more (the guest alone: about 5), and how many in between
span=$(echo $reads | tr ' ' '\n' | awk '$1 >= 100 { if (!f) f = NR; l = NR } END { print (f ? l - f + 1 : 0) }')
busy=$(echo $reads | tr ' ' '\n' | awk '$1 >= 100 { n++ } END { print n + 0 }')
diag "dd ran $((t1 - t0)) s; its reads in $busy intervals spanning $span"
[ $busy -ge 1 ] && [ $busy = $span ] || fail "dd's reads in $busy intervals spanning $span (not adjacent)"
[ $span -le $((t1 - t0 + 2)) ] || fail "dd's reads spread over $span intervals, its run took $((t1 - t0)) s"
grep -o '"READ/s":[0-9]*' $W/out | cut -d: -f2 | awk -v m=$M '{ s += $1 } END { exit !(s >= m) }' ||
	fail "READ/s adds up to less than $M over 1 s intervals"
no_probes_left "SIGINT"
pass
