# qenter -D while N direct 1 MiB reads of nullb0 are split into 64 KiB
# pieces (max_sectors_kb 64): the rest of a split bio is resubmitted from
# inside the call. On 5.x it enters the queue again without a
# block_bio_queue of its own (the bio is flagged BIO_TRACE_COMPLETION once
# traced): it takes the disk its queue had at an earlier enter (qdev;
# 5.10 put 1500 of 1600 entries on '?' before). On 4.18-5.1 it is marked
# entered and does not enter again. Every entry is on nullb0, none
# without its disk ('?'); before 5.15 at least one a read.
. /vmtest/lib.sh
need_tracefs
m=/sys/block/nullb0/queue/max_sectors_kb
old=$(cat $m)
echo 64 >$m || fail "cannot set max_sectors_kb to 64"
trap 'echo $old >$m' EXIT
start_tool barebpf qenter -D
wait_tracing 120
dd if=/dev/nullb0 of=/dev/null bs=1M count=$N iflag=direct 2>$W/dd.err || fail "dd failed: $(cat $W/dd.err)"
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
diag "output: $(cat $W/out)"
awk '/^disk = / { d = $3; gsub(/'"'"'/, "", d); next } d == "nullb0"' $W/out >$W/nullb0
awk '/^disk = / { d = $3; gsub(/'"'"'/, "", d); next } d == "?"' $W/out >$W/unknown
u=$(hist_sum $W/unknown); s=$(hist_sum $W/nullb0)
diag "nullb0: $s entries, '?': $u"
[ "$u" = 0 ] || fail "$u entries without their disk"
if ! grep -q ' __bio_queue_enter$' /proc/kallsyms; then
	[ "$s" -ge $N ] || fail "nullb0 holds $s entries for $N reads"
fi
pass
