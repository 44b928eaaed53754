# biolatency -D (tool symlink, text): N reads on nullb0, all in the log2
# usecs bucket holding the injected completion time.
. /vmtest/lib.sh
need_tracefs
start_tool biolatency -D
wait_tracing 60
workload
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
# bcc prints "disk = 'sda'" (older) or "disk = sda".
awk '/^disk = / { d = $3; gsub(/'"'"'/, "", d); next } d == "nullb0"' $W/out >$W/nullb0
grep -qE '^ +usecs +: count +distribution' $W/nullb0 || fail "no 'disk = nullb0' section with a usecs histogram"
s=$(hist_sum $W/nullb0); b=$(hist_bucket $W/nullb0 $BUCKET_LO)
[ "$s" = $N ] || fail "nullb0 histogram holds $s I/Os for $N reads"
[ "$b" = $N ] || fail "$b of $N I/Os in bucket $BUCKET_LO -> $BUCKET_HI (completion_nsec=$NSEC)"
pass
