# Sourced by every case (busybox sh). A case prints exactly one line:
#   PASS <case> (<uname -r>)  |  FAIL <case> (<uname -r>): <why>  |  SKIP ...
# Anything else it prints is a diagnostic, shown under a FAIL.
. /vmtest/config
CASE=${CASE:-$(basename "$0" .sh)}
R=$(uname -r)
W=/tmp/$CASE
rm -rf $W; mkdir -p $W
TOOL_PID=
SLOW_D=
FS_M=

# Stop a tool this case left running before leaving; remove nullb1 if
# the case made it (slow_disk).
cleanup() {
	if [ -n "$TOOL_PID" ] && [ -d /proc/$TOOL_PID ]; then
		kill -9 $TOOL_PID 2>/dev/null
		wait $TOOL_PID 2>/dev/null
	fi
	TOOL_PID=
	[ -n "$FS_M" ] && { umount $FS_M 2>/dev/null; FS_M=; }
	[ -n "$SLOW_D" ] && [ -d "$SLOW_D" ] && slow_disk_off
}
pass() { cleanup; echo "PASS $CASE ($R)"; exit 0; }
skip() { cleanup; echo "SKIP $CASE ($R): $*"; exit 0; }
fail() {
	cleanup
	for f in $W/out $W/err; do
		[ -s $f ] && { echo "# --- $f:"; tail -n 25 $f; }
	done
	[ -n "$T" ] && [ -r $T/kprobe_events ] && { echo "# --- kprobe_events:"; cat $T/kprobe_events; }
	echo "FAIL $CASE ($R): $*"
	exit 1
}
diag() { echo "# $*"; }

# tracefs as the test sees it (mounted by us at /sys/kernel/tracing if it
# is nowhere). Sets T.
T=
find_tracefs() {
	T=
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -e $d/kprobe_events ] && { T=$d; return 0; }
	done
	for d in $(awk '$3 == "tracefs" { print $2 }' /proc/mounts); do
		[ -e $d/kprobe_events ] && { T=$d; return 0; }
	done
	return 1
}
need_tracefs() {
	find_tracefs && return 0
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	find_tracefs || fail "no tracefs with kprobe_events (CONFIG_KPROBE_EVENTS?)"
}
# Our probes in kprobe_events (any barebpf_* group).
our_probes() { grep barebpf "$T/kprobe_events"; }

# The known workload: $1 direct 4 KiB reads of nullb0 (default $N).
workload() {
	[ -b /dev/nullb0 ] || fail "no /dev/nullb0 (null_blk not loaded)"
	dd if=/dev/nullb0 of=/dev/null bs=4k count=${1:-$N} iflag=direct 2>$W/dd.err ||
		fail "dd on nullb0 failed: $(cat $W/dd.err)"
}

# start_tool CMD...: run in the background, stdout in $W/out, stderr in $W/err.
start_tool() {
	: >$W/out; : >$W/err
	diag "start: $*"
	"$@" >$W/out 2>$W/err &
	TOOL_PID=$!
}
# Has the tool exited (it is a zombie or gone)?
tool_exited() {
	[ -r /proc/$TOOL_PID/stat ] || return 0
	[ "$(sed 's/.*) //' /proc/$TOOL_PID/stat | cut -c1)" = Z ]
}
# wait_tracing SECS [WORD]: wait until the tool says it is attached
# ("Tracing ..." by default) on stdout or stderr.
wait_tracing() {
	local i=0 lim=$((${1:-60} * 10)) word=${2:-Tracing}
	while [ $i -lt $lim ]; do
		grep -q "$word" $W/out $W/err 2>/dev/null && return 0
		if tool_exited; then
			wait $TOOL_PID; local rc=$?; TOOL_PID=
			fail "tool exited ($rc) before printing '$word'"
		fi
		sleep 0.1; i=$((i + 1))
	done
	fail "no '$word' line after ${1:-60}s"
}
# wait_exit SECS: wait for the tool to exit by itself; sets RC.
wait_exit() {
	local i=0 lim=$((${1:-30} * 10))
	while ! tool_exited; do
		[ $i -ge $lim ] && fail "tool still running ${1:-30}s after $2"
		sleep 0.1; i=$((i + 1))
	done
	wait $TOOL_PID; RC=$?; TOOL_PID=
}
# stop_tool SIG [SECS]: send SIG, wait for the exit; sets RC.
stop_tool() {
	kill -$1 $TOOL_PID 2>/dev/null
	wait_exit ${2:-30} "SIG$1"
}

# JSON, busybox style: the file on one line, blanks dropped (the values
# we read have no blanks).
json_flat() { tr -d ' \t\r\n' <"$1"; }
# Top-level "count" of a funclatency -j object: the buckets' own "count"s
# are cut out first.
json_count() { json_flat "$1" | sed 's/"buckets":\[[^]]*\]//g' | grep -o '"count":[0-9]*' | head -n 1 | cut -d: -f2; }
# Sum of the "count"s inside every "buckets" array.
json_bucket_sum() {
	json_flat "$1" | grep -o '"buckets":\[[^]]*\]' | grep -o '"count":[0-9]*' |
		cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }'
}
# Count of the bucket whose "lo" is $2.
json_bucket() {
	json_flat "$1" | grep -o "{[^{}]*\"lo\":$2,[^{}]*}" | grep -o '"count":[0-9]*' |
		cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }'
}
# Sum of the counts of the buckets whose "lo" is below $2.
json_below() {
	json_flat "$1" | grep -o '{[^{}]*"lo":[0-9]*,[^{}]*}' |
		sed -n 's/.*"lo":\([0-9]*\),.*"count":\([0-9]*\).*/\1 \2/p' |
		awk -v lo=$2 '$1 < lo { s += $2 } END { print s + 0 }'
}
# Text histograms (bcc's print_log2_hist): "  lo -> hi  : count  |***|".
# hist_sum FILE: sum of the counts of every histogram line.
hist_sum() { awk '$2 == "->" && $4 == ":" { s += $5 } END { print s + 0 }' "$1"; }
# hist_below FILE LO: counts of the buckets starting below LO.
hist_below() { awk -v lo=$2 '$2 == "->" && $4 == ":" && $1 < lo { s += $5 } END { print s + 0 }' "$1"; }
# hist_bucket FILE LO: count in the bucket starting at LO.
hist_bucket() { awk -v lo=$2 '$2 == "->" && $4 == ":" && $1 == lo { s += $5 } END { print s + 0 }' "$1"; }

# LINUX_VERSION_CODE the running kernel was built with. Debian's uname -r
# says 6.1.0-NN while the kernel is 6.1.NNN: its real version is in uname -v.
kernel_version_code() {
	local v
	v=$(uname -v | sed -n 's/.*Debian \([0-9]*\.[0-9]*\.[0-9]*\).*/\1/p')
	[ -n "$v" ] || v=$(uname -r | sed -n 's/^\([0-9]*\.[0-9]*\)\(\.[0-9]*\)\{0,1\}.*/\1\2/p')
	echo "$v" | awk -F. '{ c = $3 + 0; if (c > 255) c = 255; print $1 * 65536 + $2 * 256 + c }'
}

# syscall_way SYSCALL: how execsnoop and opensnoop must say they trace it,
# in WAY: the syscall tracepoints where they exist and take BPF programs
# (4.14+), else kprobes.
syscall_way() {
	WAY=kprobes
	[ -d $T/events/syscalls/sys_enter_$1 ] && [ $(kernel_version_code) -ge $((4 * 65536 + 14 * 256)) ] &&
		WAY="syscall tracepoints"
}

# The perf kprobe PMU (4.17+): probes that vanish with their last fd.
# need_slow LABEL...: a case that takes minutes per kernel under TCG runs
# on these kernels only (the ones whose attach paths and architecture
# differ), unless VMTEST_SLOW=1: CI runs the whole suite on 8 kernels
# within its 90 minutes.
need_slow() {
	[ "$SLOW" = 1 ] && return
	for k in "$@"; do [ "$LABEL" = "$k" ] && return; done
	skip "minutes per kernel under emulation: runs on $* (VMTEST_SLOW=1: on every kernel)"
}

have_kprobe_pmu() { [ -e /sys/bus/event_source/devices/kprobe/type ]; }
# Every kprobe of the kernel, PMU ones too: debugfs kprobes/list, one line a
# probe ("<addr>  k  blk_mq_start_request+0x0 [FTRACE]", "r" a kretprobe).
# Sets KLIST.
need_kprobes_list() {
	KLIST=/sys/kernel/debug/kprobes/list
	[ -e $KLIST ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	[ -e $KLIST ] || fail "no $KLIST (CONFIG_DEBUG_FS?)"
}
# kprobes_on FN: how many kprobes and kretprobes sit on FN now (at its
# entry: +0x0, or +0x4 past the endbr64 of kernels built with IBT, 7.x).
kprobes_on() { grep -cE " $1\+0x[0-4]( |$)" $KLIST; }
# No tracefs or debugfs mount but those in $W/mounts (saved before).
no_stray_mount() {
	awk '$3 == "tracefs" || $3 == "debugfs" { print $3, $2 }' /proc/mounts >$W/mounts.now
	cmp -s $W/mounts $W/mounts.now ||
		fail "mounts after $1: $(tr '\n' ';' <$W/mounts.now), before: $(tr '\n' ';' <$W/mounts)"
}
save_mounts() { awk '$3 == "tracefs" || $3 == "debugfs" { print $3, $2 }' /proc/mounts >$W/mounts; }

# Hygiene: start funclatency (a kprobe and a kretprobe), check that its
# probes are in kprobe_events while it runs (kept in $W/probes). Through
# kprobe_events on every kernel (BAREBPF_KPROBES=tracefs): the path that a
# SIGKILL can leave behind; the PMU's own cases are hygiene-pmu-*.
start_traced_funclatency() {
	start_tool env BAREBPF_KPROBES=tracefs barebpf funclatency "$@" blk_mq_start_request
	wait_tracing 60
	our_probes >$W/probes
	[ -s $W/probes ] || fail "no barebpf probe in $T/kprobe_events while tracing"
	diag "while tracing: $(tr '\n' ';' <$W/probes)"
}
no_probes_left() {
	our_probes >$W/left && fail "barebpf probes left after $1: $(tr '\n' ';' <$W/left)"
	return 0
}

# tracefs cases: unmount every tracefs and debugfs.
umount_tracing() {
	for m in $(awk '$3 == "tracefs" || $3 == "debugfs" { print $2 }' /proc/mounts | sort -r); do
		umount $m 2>/dev/null || umount -l $m || fail "cannot umount $m"
	done
	T=
	m=$(awk '$3 == "tracefs" || $3 == "debugfs" { print $2 }' /proc/mounts)
	[ -z "$m" ] || fail "still mounted: $m"
}
# funclatency --duration with tracefs not where it normally is: must count N.
funclatency_finds_tracefs() {
	start_tool barebpf funclatency --duration 5 -j blk_mq_start_request
	wait_tracing 60
	diag "mounted now: $(awk '$3 == "tracefs" || $3 == "debugfs" { printf "%s %s; ", $3, $2 }' /proc/mounts)"
	workload
	wait_exit 60 "--duration 5"
	[ $RC = 0 ] || fail "exit $RC"
	c=$(json_count $W/out)
	[ "$c" = $N ] || fail "count '$c' for $N reads"
	need_tracefs
	no_probes_left "exit"
}

# barebpf run's map dump: "map NAME:" then "  KEY: VALUE" (decimal
# numbers for integer keys and values). run_map_value FILE MAP SLOT: the
# value at integer key SLOT.
run_map_value() {
	awk -v map="$2" -v slot="$3" '
	/^map / { inmap = ($2 == map ":" || $2 == map); next }
	inmap && $1 == slot ":" { print $2; found = 1; exit }
	END { if (!found) print "" }' "$1"
}

# Two funclatency runs at once, as from containers sharing the host's
# tracefs. pidns_pair MODE_A MODE_B, MODE "ns" (own PID namespace, where it
# is PID 1: unshare -p -f) or "host": neither run may take, replace or
# remove the other's probes, and both count exactly N.
pidns_start() { # pidns_start TAG MODE: sets PID_TAG (barebpf here), U_TAG
	local p pre=
	rm -f $W/out $W/err
	[ $2 = ns ] && pre="unshare -p -f --mount-proc"
	# kprobe_events, which the namespaces share (the PMU's probes are
	# the kernel's business)
	start_tool $pre env BAREBPF_KPROBES=tracefs barebpf funclatency -j blk_mq_start_request
	wait_tracing 60
	eval PID_$1=$TOOL_PID U_$1=$TOOL_PID
	if [ $2 = ns ]; then
		eval PID_$1=
		for p in /proc/[0-9]*; do
			[ "$(cut -d' ' -f4 $p/stat 2>/dev/null)" = $TOOL_PID ] && eval PID_$1=${p#/proc/}
		done
		eval [ -n \"\$PID_$1\" ] || fail "cannot find barebpf under unshare"
	fi
	TOOL_PID=
	mv $W/out $W/out.$1; mv $W/err $W/err.$1
	ln -s out.$1 $W/out; ln -s err.$1 $W/err   # what a FAIL shows
}
pidns_stop() { # pidns_stop TAG: SIGINT to its barebpf, wait for it; sets RC
	eval kill -INT \$PID_$1
	eval TOOL_PID=\$U_$1
	wait_exit 30 "SIGINT"
}
pidns_pair() {
	pidns_start a $1
	our_probes >$W/probes.a
	[ -s $W/probes.a ] || fail "the first run's probes are not in kprobe_events"
	diag "first run ($1, pid $PID_a here): $(tr '\n' ';' <$W/probes.a)"
	pidns_start b $2
	diag "both: $(our_probes | tr '\n' ';')"
	grep -Fxf $W/probes.a $T/kprobe_events >$W/still
	cmp -s $W/still $W/probes.a || fail "the second run's start removed or replaced the first run's probes"
	workload
	pidns_stop b; rb=$RC
	diag "after the second run's exit ($rb): $(our_probes | tr '\n' ';')"
	pidns_stop a; ra=$RC
	ca=$(json_count $W/out.a); cb=$(json_count $W/out.b)
	[ $ra = 0 ] && [ $rb = 0 ] || fail "exit $ra (first run) and $rb (second) after SIGINT"
	[ "$ca" = $N ] && [ "$cb" = $N ] || fail "counts '$ca' (first run) and '$cb' (second) for $N reads"
	no_probes_left "both runs"
}

# check_latency TOTAL IN_BUCKET BELOW: N I/Os of the known latency. None may
# be faster than the injected time (below its bucket); a few may be slower:
# under TCG a busy host stalls the guest now and then (outliers of 50-100 ms
# were seen), so 90% in the bucket is required, not all.
check_latency() {
	diag "$1 I/Os: $2 in $BUCKET_LO -> $BUCKET_HI, $3 below it, $(($1 - $2 - $3)) above it"
	[ "$1" = $N ] || fail "the histogram holds $1 I/Os for $N reads"
	[ "$3" = 0 ] || fail "$3 of $N I/Os below $BUCKET_LO usecs: faster than the injected ${NSEC} ns"
	[ $(($2 * 10)) -ge $((N * 9)) ] ||
		fail "only $2 of $N I/Os in the bucket $BUCKET_LO -> $BUCKET_HI holding the injected ${NSEC} ns (90% needed)"
}

# The queue-freeze story (freeze-*, qenter-frozen): /bin/qfreezer N rewrites
# nullb0's scheduler and nr_requests N times, 4 freezes each (a #! script's
# comm is its file name). From "none" and 64 requests, each of its writes
# changes the setting, and each change freezes the queue once. Sets Q and
# restore() (puts the scheduler back).
qfreezer_setup() {
	Q=/sys/block/nullb0/queue
	cat >/bin/qfreezer <<'QF'
#!/bin/sh
q=/sys/block/nullb0/queue
i=0
while [ $i -lt ${1:-1} ]; do
	echo mq-deadline >$q/scheduler
	echo none >$q/scheduler
	echo 32 >$q/nr_requests
	echo 64 >$q/nr_requests
	i=$((i + 1))
done
QF
	chmod +x /bin/qfreezer
	grep -q mq-deadline $Q/scheduler ||
		skip "nullb0 offers no I/O scheduler (blk-mq has none before 4.11): no queue-setting write freezes its queue"
	QF_SCHED=$(sed 's/.*\[\(.*\)\].*/\1/' $Q/scheduler)
	echo none >$Q/scheduler && echo 64 >$Q/nr_requests || fail "cannot set nullb0 to none/64"
}
restore() { echo $QF_SCHED >$Q/scheduler; }

# How this kernel freezes nullb0's queue, measured apart from barebpf with a
# plain tracefs kprobe and the kernel's own stack traces (a tracefs
# instance with options/stacktrace): some freeze functions exist but are
# inlined into their callers (6.12, 7.x), and 6.12 freezes the queue in
# queue_attr_store around every store method, and again inside a scheduler
# switch. freeze_calibrate switches nullb0's scheduler to another one and
# back, and sets FREEZE_FN (the first freeze function that fires),
# FREEZE_PER2 (its calls in those two switches), FREEZE_ELV2 (of those,
# through elv_iosched_store), CUR and OTHER (the schedulers).
# STORE_FREEZES=1 if writing queue/nomerges, which no store method of its
# own freezes for, froze the queue too (queue_attr_store does it).
freeze_calibrate() {
	local q=/sys/block/nullb0/queue f n e nm I=$T/instances/vmtest_cal
	CUR=$(sed 's/.*\[\(.*\)\].*/\1/' $q/scheduler)
	OTHER=$(tr -d '[]' <$q/scheduler | tr ' ' '\n' | grep -v "^$CUR\$" | grep . | head -n 1)
	[ -n "$OTHER" ] || fail "only one scheduler: $(cat $q/scheduler)"
	nm=$(cat $q/nomerges)
	FREEZE_FN=
	for f in blk_freeze_queue_start __blk_freeze_queue_start blk_freeze_queue \
		blk_mq_freeze_queue blk_mq_freeze_queue_nomemsave; do
		awk -v f=$f '$1 == f { found = 1 } END { exit !found }' \
			$T/available_filter_functions || continue
		echo "p:vmtest_cal/f $f" >>$T/kprobe_events || continue
		mkdir $I || fail "cannot make the tracefs instance $I"
		echo 1 >$I/options/stacktrace
		echo 1 >$I/events/vmtest_cal/f/enable
		echo $OTHER >$q/scheduler && echo $CUR >$q/scheduler
		echo 0 >$I/events/vmtest_cal/f/enable
		n=$(grep -c ' f: (' $I/trace)
		e=$(grep -c '=> elv_iosched_store' $I/trace)
		echo >$I/trace
		echo 1 >$I/events/vmtest_cal/f/enable
		echo $((1 - nm % 2)) >$q/nomerges && echo $nm >$q/nomerges
		echo 0 >$I/events/vmtest_cal/f/enable
		STORE_FREEZES=$(grep -c ' f: (' $I/trace)
		rmdir $I
		echo "-:vmtest_cal/f" >>$T/kprobe_events
		[ "$n" -gt 0 ] && { FREEZE_FN=$f FREEZE_PER2=$n FREEZE_ELV2=$e; break; }
	done
	[ -n "$FREEZE_FN" ] || fail "no freeze function fires when the scheduler switches"
	[ "$STORE_FREEZES" -gt 0 ] && STORE_FREEZES=1
	diag "freeze function $FREEZE_FN: $FREEZE_PER2 calls, $FREEZE_ELV2 through elv_iosched_store, in 2 switches; a nomerges write freezes: $STORE_FREEZES"
}
# Negative controls that hold on a busy host: a freeze drains the I/O in
# flight, so on a disk whose reads take SLOW_MS (nullb1, made through
# configfs) a freeze lasts up to that long, far above what a host stall does
# to an idle guest (10-30 ms seen, rarely more), and a threshold of half of
# it separates the two by an order of magnitude. slow_disk MS makes nullb1
# with reads of MS ms (skips without configfs); slow_disk_off removes it.
slow_disk() {
	local i
	SLOW_MS=$1
	SLOW_C=/sys/kernel/config
	grep -q configfs /proc/filesystems || skip "no configfs"
	mount | grep -q " $SLOW_C " || mount -t configfs none $SLOW_C 2>/dev/null
	[ -d $SLOW_C/nullb ] || skip "null_blk has no configfs interface"
	SLOW_D=$SLOW_C/nullb/nullb1
	mkdir $SLOW_D || fail "cannot make $SLOW_D"
	echo 2 >$SLOW_D/queue_mode && echo 2 >$SLOW_D/irqmode &&
		echo $((SLOW_MS * 1000000)) >$SLOW_D/completion_nsec && echo 1 >$SLOW_D/power ||
		{ rmdir $SLOW_D; fail "cannot set up nullb1 with reads of $SLOW_MS ms"; }
	i=0; while [ ! -b /dev/nullb1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b /dev/nullb1 ] || fail "no /dev/nullb1"
}
slow_disk_off() { echo 0 >$SLOW_D/power; rmdir $SLOW_D; SLOW_D=; }
# slow_ext4 MS: an ext4 file system (busybox's mke2fs makes ext2, which
# the ext4 driver mounts: its files are ext4's) on nullb1, a memory-backed
# null_blk of 64 MiB whose requests take MS ms, mounted at FS_M (removed
# by cleanup); FS_SLOW=1. Where null_blk has no configfs or memory_backed
# (before 4.14), on a loop device over a file in the guest's memory
# instead, with FS_SLOW=0: nothing there is slow. Skips without ext4.
slow_ext4() {
	local i
	SLOW_C=/sys/kernel/config
	grep -q ext4 /proc/filesystems || skip "no ext4 in /proc/filesystems"
	mkdir -p /mnt/fsx
	FS_SLOW=1
	grep -q configfs /proc/filesystems && { mount | grep -q " $SLOW_C " || mount -t configfs none $SLOW_C 2>/dev/null; }
	if [ ! -d $SLOW_C/nullb ]; then
		FS_SLOW=0
		dd if=/dev/zero of=$W/ext4.img bs=1M count=32 2>/dev/null
		mke2fs -q -F -b 4096 $W/ext4.img >$W/mkfs.out 2>&1 || fail "mke2fs on a file: $(cat $W/mkfs.out)"
		mount -t ext4 -o loop $W/ext4.img /mnt/fsx 2>$W/mount.err || fail "mount -t ext4 -o loop: $(cat $W/mount.err)"
		FS_M=/mnt/fsx
		return 0
	fi
	SLOW_D=$SLOW_C/nullb/nullb1
	mkdir $SLOW_D || fail "cannot make $SLOW_D"
	[ -e $SLOW_D/memory_backed ] || { rmdir $SLOW_D; SLOW_D=; skip "null_blk has no memory_backed"; }
	echo 2 >$SLOW_D/queue_mode && echo 2 >$SLOW_D/irqmode && echo 1 >$SLOW_D/memory_backed &&
		echo 64 >$SLOW_D/size && echo $(($1 * 1000000)) >$SLOW_D/completion_nsec && echo 1 >$SLOW_D/power ||
		fail "cannot set up a memory-backed nullb1 of $1 ms"
	i=0; while [ ! -b /dev/nullb1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b /dev/nullb1 ] || fail "no /dev/nullb1"
	mke2fs -q -b 4096 /dev/nullb1 >$W/mkfs.out 2>&1 || fail "mke2fs on nullb1: $(cat $W/mkfs.out)"
	mount -t ext4 /dev/nullb1 /mnt/fsx 2>$W/mount.err || fail "mount -t ext4 nullb1: $(cat $W/mount.err)"
	FS_M=/mnt/fsx
}

# Benchmarks (bench/): IOPS of direct 4 KiB reads of nullb1, a null_blk
# disk made through configfs that completes at once, without a tool and
# with each, alternated in one boot. Each run with a tool is compared with
# the baselines just before and after it (TCG speeds up as it warms, and a
# busy host stalls it); the median of those ratios is the tool's.
bench_setup() {
	local C=/sys/kernel/config i v
	grep -q configfs /proc/filesystems || skip "no configfs"
	mount | grep -q " $C " || mount -t configfs none $C 2>/dev/null
	[ -d $C/nullb ] || skip "null_blk has no configfs interface"
	BENCH_D=$C/nullb/nullb1
	mkdir $BENCH_D || fail "cannot make $BENCH_D"
	echo 2 >$BENCH_D/queue_mode && echo 0 >$BENCH_D/irqmode && echo 1 >$BENCH_D/power ||
		fail "cannot set up nullb1"
	i=0; while [ ! -b /dev/nullb1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b /dev/nullb1 ] || fail "no /dev/nullb1"
	CN=2000
	for i in 1 2 3 4 5; do v=$(bench_iops); done # warm up
	CN=$((v * 6 / 5)) # about 1.2 s of reads a run
	: >$W/base; : >$W/with; : >$W/ratios
}
bench_cleanup() { echo 0 >$BENCH_D/power; rmdir $BENCH_D; }
bench_cs() { cut -d' ' -f1 /proc/uptime | tr -d .; } # centiseconds
bench_iops() {
	local t0 t1
	t0=$(bench_cs)
	dd if=/dev/nullb1 of=/dev/null bs=4k iflag=direct count=$CN 2>/dev/null
	t1=$(bench_cs)
	echo $((CN * 100 / (t1 - t0 + (t1 == t0))))
}
# bench_measure LABEL TOOL ARGS...: a baseline, then a run with the tool.
bench_measure() {
	local l=$1 v; shift
	bench_iops >>$W/base
	start_tool barebpf "$@"
	wait_tracing 120
	v=$(bench_iops)
	stop_tool INT
	[ $RC = 0 ] || { bench_cleanup; fail "$* exited $RC: $(cat $W/err)"; }
	echo "$l $v" >>$W/with
}
# bench_report LABEL...: a last baseline, then each label's median ratio.
bench_report() {
	local n=0 l v b m
	bench_iops >>$W/base
	bench_cleanup
	diag "IOPS, dd bs=4k iflag=direct count=$CN on nullb1 (irqmode=0); baselines: $(tr '\n' ' ' <$W/base)"
	while read l v; do
		n=$((n + 1))
		b=$(awk -v n=$n 'NR == n || NR == n + 1 { s += $1 } END { print int(s / 2) }' $W/base)
		echo "$l $v $b" >>$W/ratios
	done <$W/with
	for l in "$@"; do
		m=$(awk -v l=$l '$1 == l { print 1000 * $2 / $3 }' $W/ratios | sort -n |
			awk '{ v[NR] = $1 } END { print int(NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
		diag "$(printf '%-9s IOPS %s against baselines %s: median %d.%d%%' $l \
			"$(awk -v l=$l '$1 == l { printf "%s ", $2 }' $W/ratios)" \
			"$(awk -v l=$l '$1 == l { printf "%s ", $3 }' $W/ratios)" $((m / 10)) $((m % 10)))"
	done
}
# The scheduler cases' reader (runqlat-counts, cpudist-slices):
# sched_reader starts a shell on CPU 0 that reads lines from a fifo (RD,
# the fifo open for writing on fd 3); sched_asleep PID waits until it
# sleeps; sched_ctxt PID is its context switches (voluntary +
# involuntary); hist_sum FILE [LINE] sums the counts of the histogram
# after LINE (or the first) in FILE.
sched_reader() {
	mkfifo $W/fifo
	taskset -c 0 sh -c 'while read x; do :; done' <$W/fifo &
	RD=$!
	exec 3>$W/fifo
}
sched_asleep() {
	local i=0
	while [ "$(sed 's/.*) //' /proc/$1/stat | cut -c1)" != S ]; do
		[ $i -ge 100 ] && fail "process $1 never sleeps"
		usleep 20000; i=$((i + 1))
	done
}
sched_ctxt() { awk '/ctxt_switches/ { s += $2 } END { print s + 0 }' /proc/$1/status; }
hist_sum() {
	awk -v s="$2" 'BEGIN { on = s == "" } $0 == s { on = 1; next }
		on && $2 == "->" && $4 == ":" { t += $5; seen = 1; next }
		seen && on { exit } END { print t + 0 }' "$1"
}

# The loopback interface up (the guest's init leaves it down).
lo_up() {
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null ||
		fail "cannot bring lo up"
}
# Has the kernel IPv6 (and ::1 on lo)?
have_ipv6() { [ -e /proc/net/if_inet6 ] && grep -q '^0*1 ' /proc/net/if_inet6; }
# tcp_peer_port FILE RPORT: the local port of the connection in
# /proc/net/FILE (tcp, tcp6) established to remote port RPORT, as the
# kernel lists it (the truth a tool's ports are checked against).
tcp_peer_port() {
	local h
	h=$(printf '%04X' $2)
	h=$(awk -v h=":$h" '$4 == "01" && substr($3, length($3) - 4) == h { split($2, a, ":"); print a[2]; exit }' /proc/net/$1)
	[ -n "$h" ] && printf '%d' 0x$h
}
# A TCP connection over lo that stays open SECS seconds: a busybox nc
# listener on PORT (LPID, its pid) and a client to ADDR (CPID), both
# holding it open with a sleep on their stdin.
# tcp_pair ADDR PORT SECS
tcp_pair() {
	sleep $3 | nc -l -p $2 >/dev/null 2>&1 &
	LPID=$!
	sleep 0.3
	sleep $3 | nc $1 $2 >/dev/null 2>&1 &
	CPID=$!
}
