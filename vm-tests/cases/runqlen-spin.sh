# runqlen: where rq.nr_running is, and that pinned spinners show.
# vmtest-timeout: 300
# 1. The offset runqlen -v takes: where the guest kernel has BTF
#    (/sys/kernel/btf/vmlinux), from it; then forced discovery
#    (BAREBPF_FIELDS=discover:rq.nr_running) must find the same. Where it
#    has none, it is discovered, and must be 4: struct rq opens with its
#    raw_spinlock_t (4 bytes without spinlock debugging: the 4.x kernels
#    built for these tests have neither DEBUG_SPINLOCK nor
#    DEBUG_LOCK_ALLOC, ../shared/kernels/*/config-*, and no kernel here has
#    /proc/lockdep) and nr_running follows it (kernel/sched/sched.h, 4.9
#    to 7.x).
# 2. Three copies of /vmtest/spin pinned to the last CPU: runqlen -C -j 1 2
#    shows that CPU with 2 or more tasks waiting in (nearly) every sample
#    of the second second; on 6.1+ again with the run queues taken from
#    the sched_update_nr_running_tp raw tracepoint
#    (BAREBPF_RUNQLEN_RQ=tracepoint), the way of kernels with neither BTF
#    nor data symbols in kallsyms (Debian's armv7 6.1 and 6.12; its 5.10
#    has no such tracepoint BPF may attach to: runqlen refuses there, and
#    the case SKIPs).
. /vmtest/lib.sh
[ -x /vmtest/spin ] || fail "no /vmtest/spin: $(cat /vmtest/spin.why 2>/dev/null)"
offset() { sed -n 's/^rq.nr_running at offset \([0-9]*\) .*/\1/p' $W/err; }
start_tool barebpf runqlen -v --duration 1
wait_exit 120 "1 s"
# Debian's armv7 5.10: no BTF, no data symbols, and no raw tracepoint
# sched_update_nr_running_tp that BPF may attach to (6.1 has one)
if [ $RC = 1 ] && grep -q "cannot find the CPUs' run queues" $W/err &&
	grep -q "sched_update_nr_running_tp.*No such file" $W/err &&
	[ ! -r /sys/kernel/btf/vmlinux ] && ! grep -qE ' runqueues$' /proc/kallsyms; then
	diag "refused: $(cat $W/err)"
	skip "no BTF, no runqueues in /proc/kallsyms, no sched_update_nr_running_tp: runqlen refuses, as it should"
fi
# riscv64 7.x with the JIT off (Debian's): its verifier inlines
# bpf_get_smp_processor_id and bpf_get_current_task with instructions only
# the JIT has and refuses a program that calls them; runqlen takes the CPU
# from a per-CPU map of each CPU's number there (-v says so), as on 6.12,
# whose helper answers 0
grep '^CPU: ' $W/err | sed 's/^/# /'
[ $RC = 0 ] || fail "runqlen -v: exit $RC: $(cat $W/err)"
first=$(offset)
diag "$(grep -E '^(run queue|rq.nr_running)' $W/err | tr '\n' '|')"
[ -n "$first" ] || fail "no offset in -v"
if [ -r /sys/kernel/btf/vmlinux ]; then
	grep -q "^rq.nr_running at offset $first (4 bytes): BTF /sys/kernel/btf/vmlinux" $W/err ||
		fail "with BTF, not from it: $(grep nr_running $W/err)"
	export BAREBPF_FIELDS=discover:rq.nr_running
	start_tool barebpf runqlen -v --duration 1
	wait_exit 120 "1 s"
	unset BAREBPF_FIELDS
	[ $RC = 0 ] || fail "forced discovery: exit $RC: $(cat $W/err)"
	found=$(offset)
	diag "forced: $(grep '^rq.nr_running' $W/err)"
	grep -q "^rq.nr_running at offset [0-9]* (4 bytes): discovered" $W/err ||
		fail "BAREBPF_FIELDS did not force the discovery"
	[ "$found" = "$first" ] || fail "discovered $found, BTF says $first"
else
	grep -qE "^rq.nr_running at offset $first \(4 bytes\): discovered" $W/err ||
		fail "without BTF, not discovered: $(grep nr_running $W/err)"
	[ ! -e /proc/lockdep ] || fail "a kernel with lockdep: struct rq's lock is larger"
	[ "$first" = 4 ] || fail "discovered $first; this kernel's struct rq has nr_running at 4"
fi
cpu=$(sed 's/.*[-,]//' /sys/devices/system/cpu/online)
SPINS=
for i in 1 2 3; do taskset -c $cpu /vmtest/spin & SPINS="$SPINS $!"; done
sleep 0.5
spin_check() { # spin_check WHAT: runqlen -C -j 1 2 sees the spinners
	start_tool barebpf runqlen -v -C -j 1 2
	wait_exit 120 "2 s"
	[ $RC = 0 ] || { kill $SPINS; fail "$1: runqlen -C -j: exit $RC: $(cat $W/err)"; }
	line=$(sed -n 2p $W/out | tr -d ' ')
	row=$(echo "$line" | sed -n "s/.*{\"cpu\":$cpu,\"runqlen\":\[\([^]]*\)\].*/\1/p")
	[ -n "$row" ] || { kill $SPINS; fail "$1: no CPU $cpu in the second output: $line"; }
	set -- "$1" $(echo "$row" | tr '}' '\n' | sed -n 's/.*"len":\([0-9]*\),"count":\([0-9]*\).*/\1 \2/p' |
		awk '{ all += $2; if ($1 >= 2) ge += $2 } END { print ge + 0, all + 0 }')
	diag "$1: $(grep '^run queue' $W/err); CPU $cpu with 3 spinners: $2 of $3 samples with 2 or more waiting: $row"
	# 99 Hz of guest time; arm64 6.1 under TCG gave 20 with the spinners
	[ "$3" -ge 10 ] || { kill $SPINS; fail "$1: $3 samples of CPU $cpu in a second at 99 Hz"; }
	[ $(($2 * 100)) -ge $(($3 * 90)) ] ||
		{ kill $SPINS; fail "$1: $2 of $3 samples of CPU $cpu with 2 or more waiting"; }
}
spin_check default
if ! grep -q "^run queue: the rq sched_update_nr_running_tp" $W/err &&
	[ "$(kernel_version_code)" -ge $((6 * 65536 + 1 * 256)) ]; then
	export BAREBPF_RUNQLEN_RQ=tracepoint
	spin_check tracepoint
	unset BAREBPF_RUNQLEN_RQ
fi
kill $SPINS 2>/dev/null
pass
