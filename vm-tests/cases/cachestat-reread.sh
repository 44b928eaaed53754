# cachestat -j: 4 MiB of nullb0 read twice through the page cache after
# the caches are dropped. The first read misses (MISSES at least 16), the
# second hits (HITS at least 16, a tenth of the first's misses at most,
# HITRATIO above 90%). Each read is counted by its own run, cut short by
# SIGINT: bcc prints that interval. nullb0 stays open in between (fd 3):
# the last close of a block device drops its page cache (4.9). Counts are
# of calls, as bcc's: where the page cache holds large folios (7.x: 72
# folios added for the 1,024 pages), a miss is a folio.
. /vmtest/lib.sh
need_tracefs
run_read() {
	start_tool barebpf cachestat -j 100
	wait_tracing 60
	dd if=/dev/nullb0 of=/dev/null bs=64k count=64 2>$W/dd.err || fail "dd on nullb0 failed: $(cat $W/dd.err)"
	stop_tool INT
	[ $RC = 0 ] || fail "exit $RC after SIGINT"
	grep -q '^{"time":' $W/out || fail "no JSON line"
	HITS=$(grep -o '"hits":[0-9]*' $W/out | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }')
	MISSES=$(grep -o '"misses":[0-9]*' $W/out | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }')
	WHAT=$(sed -n 's/.*Tracing page cache (\(.*\)).*/\1/p' $W/err)
}
sync
echo 3 >/proc/sys/vm/drop_caches
exec 3</dev/nullb0
run_read
diag "first read: $HITS hits, $MISSES misses ($WHAT)"
M1=$MISSES
[ $MISSES -ge 16 ] || fail "first read: $MISSES misses"
run_read
exec 3<&-
diag "second read: $HITS hits, $MISSES misses"
[ $HITS -ge 16 ] || fail "second read: $HITS hits"
[ $((MISSES * 10)) -le $M1 ] || fail "second read: $MISSES misses, the first $M1"
grep -q '"hitratio":0\.9[0-9]*\|"hitratio":1\.0' $W/out || fail "second read: hit ratio not above 90%: $(cat $W/out)"
no_probes_left "SIGINT"
# hostile: piped into head (SIGPIPE at the second line, not 100 lines of
# 0.2 s later), stdout closed (refused at start: exit 1, said); no probe
# left either way
t0=$(date +%s)
barebpf cachestat 0.2 100 2>/dev/null | head -n 1 >/dev/null
t1=$(date +%s)
[ $((t1 - t0)) -lt 15 ] || fail "cachestat 0.2 100 | head -n 1 ran $((t1 - t0)) s"
no_probes_left "SIGPIPE"
barebpf cachestat 0.2 2 >&- 2>$W/closed.err && fail "exit 0 with stdout closed"
grep -q 'standard output is closed' $W/closed.err || fail "stdout closed, not said: $(cat $W/closed.err)"
no_probes_left "a closed stdout"
pass
