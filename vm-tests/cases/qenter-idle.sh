# qenter -D while direct reads run on a disk whose reads take 1 s
# (slow_disk: nullb1) and nothing freezes it: no entry waits 262 ms (a
# freeze of that disk would make waits of up to 1 s; a busy host stalls the
# guest for 10-30 ms, an order of magnitude less). Before 5.15 (no
# __bio_queue_enter) every bio enters through blk_queue_enter: nullb1 then
# holds exactly one entry per read; from 5.15 none takes the slow path.
. /vmtest/lib.sh
need_tracefs
slow_disk 1000
READS=8
start_tool barebpf qenter -D
wait_tracing 120
dd if=/dev/nullb1 of=/dev/null bs=4k count=$READS iflag=direct 2>$W/dd.err || fail "dd on nullb1 failed: $(cat $W/dd.err)"
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
diag "output: $(cat $W/out)"
awk '/^disk = / { d = $3; gsub(/'"'"'/, "", d); next } d == "nullb1"' $W/out >$W/nullb1
long=$(awk '$2 == "->" && $4 == ":" && $1 >= 262144 { s += $5 } END { print s + 0 }' $W/out)
[ "$long" = 0 ] || fail "$long entries of 262 ms or more without a freeze"
s=$(hist_sum $W/nullb1)
if grep -q ' __bio_queue_enter$' /proc/kallsyms; then
	[ "$s" = 0 ] || fail "$s slow-path entries on nullb1 without a freeze"
else
	[ "$s" = $READS ] || fail "nullb1 histogram holds $s entries for $READS reads"
fi
slow_disk_off
pass
