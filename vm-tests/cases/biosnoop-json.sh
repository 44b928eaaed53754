# barebpf biosnoop -j -Q -d nullb0 with mq-deadline: one JSON object per
# read for N direct reads, each with the reading dd's pid, "t":"R",
# 4096 bytes, a numeric queue time (requests pass the scheduler) and a
# latency of at least the injected one (90% within its log2 bucket).
. /vmtest/lib.sh
need_tracefs
q=/sys/block/nullb0/queue/scheduler
old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $q)
echo mq-deadline >$q || skip "no mq-deadline scheduler: $(cat $q)"
restore() { echo $old >$q; }
start_tool barebpf biosnoop -j -Q -d nullb0
wait_tracing 60
dd if=/dev/nullb0 of=/dev/null bs=4k count=$N iflag=direct 2>$W/dd.err &
DD=$!
wait $DD || { restore; fail "dd failed: $(cat $W/dd.err)"; }
stop_tool INT
restore
[ $RC = 0 ] || fail "exit $RC after SIGINT"
n=$(grep -c . $W/out)
[ "$n" = $N ] || fail "$n JSON lines for $N reads"
want="\"comm\":\"dd\",\"pid\":$DD,\"disk\":\"nullb0\",\"t\":\"R\""
bad=$(grep -vF "$want" $W/out | head -n 1)
[ -z "$bad" ] || fail "a line without '$want': $bad"
bad=$(grep -v '"bytes":4096,"que_ms":[0-9][0-9.]*,"lat_ms":[0-9.]*}$' $W/out | head -n 1)
[ -z "$bad" ] || fail "a line without bytes 4096, a numeric que_ms and lat_ms: $bad"
# at least the injected time; 90% within its bucket (TCG stalls, lib.sh)
lo=$(awk -v ns=$NSEC 'BEGIN { printf "%.3f", ns / 1e6 }')
sed 's/.*"lat_ms":\([0-9.]*\)}$/\1/' $W/out >$W/lat
below=$(awk -v lo=$lo '$1 < lo' $W/lat | wc -l)
inb=$(awk -v hi=$BUCKET_HI '$1 * 1000 <= hi' $W/lat | wc -l)
[ $below = 0 ] || fail "$below I/Os with lat_ms below $lo: faster than the injected $NSEC ns"
[ $((inb * 10)) -ge $((N * 9)) ] || fail "only $inb of $N I/Os with lat_ms up to $BUCKET_HI us (90% needed)"
grep -q "biosnoop: $N I/Os printed, 0 lost" $W/err || fail "no '$N I/Os printed, 0 lost' on stderr"
pass
