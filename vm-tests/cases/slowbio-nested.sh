# barebpf slowbio -d nullb0 0 (every call): N direct 1 MiB reads, each split
# into 64 KiB pieces (max_sectors_kb 64), make N outermost submission
# calls. Up to 6.12 at least, the rest of a split bio is resubmitted
# through submit_bio_noacct from inside the call (15 nested calls a read);
# 7.x queues it without that call. Exactly N lines, all dd on nullb0.
. /vmtest/lib.sh
need_tracefs
m=/sys/block/nullb0/queue/max_sectors_kb
old=$(cat $m)
echo 64 >$m || fail "cannot set max_sectors_kb to 64 (max_hw_sectors_kb $(cat ${m%/*}/max_hw_sectors_kb))"
# The splits themselves, counted apart from the tool (a tracefs instance
# of our own with block:block_split).
I=$T/instances/vmtest_split
mkdir $I 2>/dev/null || { echo $old >$m; fail "cannot make the tracefs instance $I"; }
restore() { echo 0 >$I/events/block/block_split/enable; rmdir $I; echo $old >$m; }
echo 1 >$I/events/block/block_split/enable || { restore; fail "cannot enable block:block_split"; }
start_tool barebpf slowbio -d nullb0 0
wait_tracing 60
dd if=/dev/nullb0 of=/dev/null bs=1M count=$N iflag=direct 2>$W/dd.err || { restore; fail "dd failed: $(cat $W/dd.err)"; }
# the probes saw every call, nested ones too
hits=$(awk '$1 ~ /^bb[0-9]/ && $2 > h { h = $2 } END { print h + 0 }' $T/kprobe_profile)
stop_tool INT
splits=$(grep -c 'block_split:' $I/trace)
restore
[ $RC = 0 ] || fail "exit $RC after SIGINT"
awk '!/^Tracing/ && !/^TIME\(s\)/' $W/out >$W/calls
n=$(wc -l <$W/calls)
diag "$n calls printed; the probes fired $hits times; $splits splits"
[ "$splits" -ge $((15 * N)) ] || fail "$splits splits for $N reads of 1 MiB in 64 KiB pieces"
if [ "$hits" -ge $((2 * N)) ]; then
	diag "nested submission calls: $((hits - N))"
elif [ "$hits" = $N ]; then
	diag "no nested submission calls: this kernel queues the rest of a split bio without submit_bio_noacct"
else
	fail "the probes fired $hits times for $N reads"
fi
[ "$n" = $N ] || fail "$n calls printed for $N reads (nested calls counted?)"
bad=$(awk '$2 != "dd" || $5 != "nullb0"' $W/calls | head -n 1)
[ -z "$bad" ] || fail "not a call of dd on nullb0: '$bad'"
grep -q "slowbio: $N slow calls printed, 0 lost" $W/err || fail "no '$N slow calls printed, 0 lost' on stderr"
pass
