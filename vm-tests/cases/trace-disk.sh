# trace -d nullb0: only calls by tasks whose latest bio went to nullb0. A
# kprobe on vfs_read sees both dd (reading nullb0) and cat (reading /proc):
# dd's reads after its first bio are kept (N - 1 of N: the first read comes
# before the first bio), cat's never are.
. /vmtest/lib.sh
need_tracefs
start_tool barebpf trace -j -d nullb0 vfs_read
wait_tracing 60
workload
cat /proc/version /proc/cpuinfo /proc/meminfo >/dev/null
sleep 1   # let the reader drain the perf buffers
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
d=$(grep -c '"comm":"dd"' $W/out)
c=$(grep -c '"comm":"cat"' $W/out)
[ "$c" = 0 ] || fail "$c reads by cat traced, which queued no bio to nullb0"
[ "$d" -ge $((N - 1)) ] && [ "$d" -le $((N + 1)) ] || fail "$d reads by dd traced for $N"
no_probes_left "SIGINT"
pass
