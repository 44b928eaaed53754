# runqlen: where rq.nr_running is, and that pinned spinners show.
# 1. The offset runqlen -v takes: where the guest kernel has BTF
#    (/sys/kernel/btf/vmlinux), from it; then forced discovery
#    (BAREBPF_FIELDS=discover:rq.nr_running) must find the same. Where it
#    has none (the 4.x kernels built for these tests: no DEBUG_INFO), it is
#    discovered, and must be 4: their configs (../shared/kernels/*/config-*)
#    have neither DEBUG_SPINLOCK nor DEBUG_LOCK_ALLOC, so struct rq's first
#    member, raw_spinlock_t lock, has 4 bytes and nr_running follows it
#    (kernel/sched/sched.h of 4.9 to 4.19).
# 2. Three copies of /vmtest/spin pinned to the last CPU: runqlen -C -j 1 2
#    shows that CPU with 2 or more tasks waiting in (nearly) every sample
#    of the second second.
. /vmtest/lib.sh
[ -x /vmtest/spin ] || fail "no /vmtest/spin: $(cat /vmtest/spin.why 2>/dev/null)"
offset() { sed -n 's/^rq.nr_running at offset \([0-9]*\) .*/\1/p' $W/err; }
start_tool barebpf runqlen -v --duration 1
wait_exit 120 "1 s"
# Neither way (Debian's armmp 5.10: no BTF, no data symbols in kallsyms):
# a refusal that says so, and nothing else to check.
if [ ! -r /sys/kernel/btf/vmlinux ] && ! grep -qE ' runqueues$' /proc/kallsyms; then
	[ $RC = 1 ] && grep -q "cannot find the CPUs' run queues" $W/err ||
		fail "no BTF and no runqueues in kallsyms: exit $RC: $(cat $W/err)"
	diag "refused: $(cat $W/err)"
	skip "no BTF and no runqueues in /proc/kallsyms (CONFIG_KALLSYMS_ALL): runqlen refuses, as it should"
fi
[ $RC = 0 ] || fail "runqlen -v: exit $RC: $(cat $W/err)"
first=$(offset)
diag "$(grep -E '^(run queue|rq.nr_running)' $W/err)"
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
	grep -q "^rq.nr_running at offset $first (4 bytes): discovered" $W/err ||
		fail "without BTF, not discovered: $(grep nr_running $W/err)"
	[ "$first" = 4 ] || fail "discovered $first; this kernel's struct rq has nr_running at 4"
fi
cpu=$(sed 's/.*[-,]//' /sys/devices/system/cpu/online)
SPINS=
for i in 1 2 3; do taskset -c $cpu /vmtest/spin & SPINS="$SPINS $!"; done
sleep 0.5
start_tool barebpf runqlen -C -j 1 2
wait_exit 120 "2 s"
kill $SPINS 2>/dev/null
[ $RC = 0 ] || fail "runqlen -C -j: exit $RC: $(cat $W/err)"
line=$(sed -n 2p $W/out | tr -d ' ')
row=$(echo "$line" | sed -n "s/.*{\"cpu\":$cpu,\"runqlen\":\[\([^]]*\)\].*/\1/p")
[ -n "$row" ] || fail "no CPU $cpu in the second output: $line"
set -- $(echo "$row" | tr '}' '\n' | sed -n 's/.*"len":\([0-9]*\),"count":\([0-9]*\).*/\1 \2/p' |
	awk '{ all += $2; if ($1 >= 2) ge += $2 } END { print ge + 0, all + 0 }')
diag "CPU $cpu with 3 spinners: $1 of $2 samples with 2 or more waiting: $row"
[ "$2" -ge 40 ] || fail "$2 samples of CPU $cpu in a second at 99 Hz"
[ $(($1 * 100)) -ge $(($2 * 90)) ] || fail "$1 of $2 samples of CPU $cpu with 2 or more waiting"
pass
