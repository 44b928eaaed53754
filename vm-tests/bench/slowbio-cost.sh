# The cost per I/O of slowbio and biosnoop (informational, as freeze-cost):
# direct 4 KiB reads of a second null_blk disk that completes at once
# (nullb1, made through configfs), IOPS without a tool and with each,
# alternated in one boot; each run with a tool is compared with the mean
# of the baselines just before and after it, and the median of those
# ratios is the tool's (VMTEST_VERBOSE=1 shows them). slowbio probes every
# bio submission (a kprobe, a kretprobe and block_bio_queue) and prints
# nothing here (no call is slower than 10 ms); biosnoop prints every I/O.
. /vmtest/lib.sh
need_tracefs
ROUNDS=2
C=/sys/kernel/config
grep -q configfs /proc/filesystems || skip "no configfs"
mount | grep -q " $C " || mount -t configfs none $C 2>/dev/null
[ -d $C/nullb ] || skip "null_blk has no configfs interface"
d=$C/nullb/nullb1
mkdir $d || fail "cannot make $d"
echo 2 >$d/queue_mode && echo 0 >$d/irqmode && echo 1 >$d/power || fail "cannot set up nullb1"
i=0; while [ ! -b /dev/nullb1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -b /dev/nullb1 ] || fail "no /dev/nullb1"
cleanup_disk() { echo 0 >$d/power; rmdir $d; }

cs() { cut -d' ' -f1 /proc/uptime | tr -d .; } # centiseconds
iops() {
	local t0 t1
	t0=$(cs)
	dd if=/dev/nullb1 of=/dev/null bs=4k iflag=direct count=$CN 2>/dev/null
	t1=$(cs)
	echo $((CN * 100 / (t1 - t0 + (t1 == t0))))
}
CN=2000
for i in 1 2 3 4 5; do v=$(iops); done # warm up
CN=$((v * 6 / 5)) # about 1.2 s of reads a run
: >$W/base; : >$W/with
measure() { # measure LABEL TOOL ARGS...: a baseline, then with the tool
	local l=$1 v; shift
	iops >>$W/base
	start_tool barebpf "$@"
	wait_tracing 120
	v=$(iops)
	stop_tool INT
	[ $RC = 0 ] || { cleanup_disk; fail "$* exited $RC: $(cat $W/err)"; }
	echo "$l $v" >>$W/with
	[ $l = biosnoop ] && diag "biosnoop: $(grep -c nullb1 $W/out) lines; $(grep 'I/Os printed' $W/err)"
}
r=0
while [ $r -lt $ROUNDS ]; do
	measure slowbio slowbio -d nullb1
	measure biosnoop biosnoop -d nullb1
	r=$((r + 1))
done
iops >>$W/base
cleanup_disk
diag "IOPS, dd bs=4k iflag=direct count=$CN on nullb1 (irqmode=0); baselines: $(tr '\n' ' ' <$W/base)"
n=0
while read l v; do
	n=$((n + 1))
	b=$(awk -v n=$n 'NR == n || NR == n + 1 { s += $1 } END { print int(s / 2) }' $W/base)
	echo "$l $v $b" >>$W/ratios
done <$W/with
for l in slowbio biosnoop; do
	m=$(awk -v l=$l '$1 == l { print 1000 * $2 / $3 }' $W/ratios | sort -n |
		awk '{ v[NR] = $1 } END { print int(NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
	diag "$(printf '%-9s IOPS %s against baselines %s: median %d.%d%%' $l \
		"$(awk -v l=$l '$1 == l { printf "%s ", $2 }' $W/ratios)" \
		"$(awk -v l=$l '$1 == l { printf "%s ", $3 }' $W/ratios)" $((m / 10)) $((m % 10)))"
done
pass
