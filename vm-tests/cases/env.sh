# The test VM itself, without barebpf: nullb0 is the only disk doing I/O, its
# latency is the injected one, and a plain tracefs kprobe counts exactly N
# blk_mq_start_request calls for N direct reads (what the tool cases assume).
. /vmtest/lib.sh
need_tracefs
[ -b /dev/nullb0 ] || fail "no /dev/nullb0"
other=$(ls /sys/block | grep -vE '^(nullb0|loop[0-9]+|ram[0-9]+)$' | tr '\n' ' ')
[ -z "$other" ] || fail "other disks could add I/O: $other"
ns=$(cat /sys/module/null_blk/parameters/completion_nsec 2>/dev/null)
[ "$ns" = "$NSEC" ] || fail "null_blk completion_nsec is '$ns', expected $NSEC"
reads() { awk '$3 == "nullb0" { print $4 }' /proc/diskstats; }
echo 'p:vmtest_env/start blk_mq_start_request' >>$T/kprobe_events || fail "cannot add a kprobe on blk_mq_start_request"
# put back as found: with tracing_on left 0, every later case's
# bpf_trace_printk lines went unrecorded (run-perf in the whole suite)
was_on=$(cat $T/tracing_on)
echo 0 >$T/tracing_on
echo >$T/trace
echo 1 >$T/events/vmtest_env/enable
echo 1 >$T/tracing_on
r0=$(reads)
workload
r1=$(reads)
echo 0 >$T/tracing_on
echo 0 >$T/events/vmtest_env/enable
hits=$(grep -c ' start:' $T/trace)
echo >$T/trace
echo '-:vmtest_env/start' >>$T/kprobe_events
echo $was_on >$T/tracing_on
[ $((r1 - r0)) = $N ] || fail "/proc/diskstats counts $((r1 - r0)) reads on nullb0 for $N"
[ "$hits" = $N ] || fail "tracefs kprobe saw $hits blk_mq_start_request calls for $N reads"
pass
