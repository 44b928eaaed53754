# barebpf exporter where little else is there (the old kernels' set): while
# a direct-I/O reader makes N reads of nullb0 (17 ms each), a scrape over
# loopback must count at least those N in
# barebpf_bio_latency_seconds_count{disk="nullb0",op="read"}, the
# biolatency collector must say it is on, --textfile holds the same count
# and is removed at exit, and no probe is left.
. /vmtest/lib.sh
need_tracefs
ifconfig lo 127.0.0.1 up 2>/dev/null || ip link set lo up 2>/dev/null
URL=http://127.0.0.1:19436/metrics

start_tool barebpf exporter --interval 1 --listen 127.0.0.1:19436 --textfile $W
wait_tracing 120 Exporting
wget -q -O $W/m0 $URL || fail "no answer from $URL"
grep -q '^barebpf_collector_enabled{collector="biolatency"} 1$' $W/m0 || fail "biolatency collector off: $(grep collector_enabled $W/m0)"
b0=$(awk -F' ' '/^barebpf_bio_latency_seconds_count\{disk="nullb0",op="read"\}/ { print $2 }' $W/m0)
dd if=/dev/nullb0 of=/dev/null bs=4k iflag=direct count=$N 2>/dev/null || fail "dd failed"
sleep 2.5 # two renders
wget -q -O $W/m $URL || fail "no answer from $URL after the reads"
cp $W/barebpf.prom $W/textfile 2>/dev/null
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
l=$(awk -F' ' '/^barebpf_bio_latency_seconds_count\{disk="nullb0",op="read"\}/ { print $2 }' $W/m)
diag "reads counted: before ${b0:-0}, after ${l:-none}; collectors: $(grep collector_enabled $W/m | tr '\n' ';')"
[ $((${l:-0} - ${b0:-0})) -ge $N ] || fail "bio latency on nullb0 counts $((${l:-0} - ${b0:-0})) reads for $N direct reads"
grep -q "^barebpf_bio_latency_seconds_count{disk=\"nullb0\",op=\"read\"} $l\$" $W/textfile || fail "the textfile does not say $l reads"
[ -e $W/barebpf.prom ] && fail "the textfile is left after exit"
no_probes_left "SIGINT"
pass
