# barebpf slowbio -d nullb0 0 (every call): N direct 1 MiB reads, each split
# into 64 KiB pieces (max_sectors_kb 64), make N outermost submission
# calls and 15 nested ones each (the rest of a split bio is resubmitted
# from inside the call): exactly N lines, all dd on nullb0.
. /vmtest/lib.sh
need_tracefs
m=/sys/block/nullb0/queue/max_sectors_kb
old=$(cat $m)
echo 64 >$m || fail "cannot set max_sectors_kb to 64 (max_hw_sectors_kb $(cat ${m%/*}/max_hw_sectors_kb))"
restore() { echo $old >$m; }
start_tool barebpf slowbio -d nullb0 0
wait_tracing 60
dd if=/dev/nullb0 of=/dev/null bs=1M count=$N iflag=direct 2>$W/dd.err || { restore; fail "dd failed: $(cat $W/dd.err)"; }
# the probes saw every call, nested ones too: many more than N
hits=$(awk '$1 ~ /^bb[0-9]/ && $2 > h { h = $2 } END { print h + 0 }' $T/kprobe_profile)
stop_tool INT
restore
[ $RC = 0 ] || fail "exit $RC after SIGINT"
awk '!/^Tracing/ && !/^TIME\(s\)/' $W/out >$W/calls
n=$(wc -l <$W/calls)
diag "$n calls printed; the probes fired $hits times"
[ "$hits" -ge $((2 * N)) ] || fail "the probes fired $hits times for $N split reads: no nested calls to test"
[ "$n" = $N ] || fail "$n calls printed for $N reads (nested calls counted?)"
bad=$(awk '$2 != "dd" || $5 != "nullb0"' $W/calls | head -n 1)
[ -z "$bad" ] || fail "not a call of dd on nullb0: '$bad'"
grep -q "slowbio: $N slow calls printed, 0 lost" $W/err || fail "no '$N slow calls printed, 0 lost' on stderr"
pass
