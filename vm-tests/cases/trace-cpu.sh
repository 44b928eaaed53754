# trace's $cpu, read in the program (bpf_get_smp_processor_id): a filter
# ($cpu == N) on the last CPU, where a shell pinned there opens files,
# keeps only its events, and each prints N (the -C column, the ring's CPU,
# says N too). Where that helper answers 0 on every CPU (riscv64 6.12
# with the JIT off: a helper its JIT inlines), trace refuses $cpu in one
# line and exits 1 (before, the filter matched nothing on CPU N and $cpu
# printed 0).
. /vmtest/lib.sh
cpu=$(sed 's/.*[-,]//' /sys/devices/system/cpu/online)
[ "$cpu" -ge 1 ] || skip "one CPU: \$cpu == 0 proves nothing"
start_tool barebpf trace -C "t:syscalls:sys_enter_openat (\$cpu == $cpu) \"on %d\", \$cpu"
i=0
while ! grep -q Tracing $W/out $W/err 2>/dev/null; do
	if tool_exited; then
		wait $TOOL_PID; RC=$?; TOOL_PID=
		[ $RC = 1 ] && grep -q "bpf_get_smp_processor_id() is refused or answers 0 on every CPU" $W/err &&
			[ "$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null)" = 0 ] ||
			fail "trace did not start: exit $RC: $(cat $W/err)"
		[ "$(wc -l <$W/err)" = 1 ] || fail "refused in $(wc -l <$W/err) lines"
		diag "refused: $(cat $W/err)"
		pass
	fi
	i=$((i + 1))
	[ $i -lt 600 ] || fail "no Tracing line after 60 s"
	sleep 0.1
done
taskset -c $cpu sh -c 'i=0; while [ $i -lt 20 ]; do cat /dev/null; i=$((i + 1)); done'
sleep 1
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
n=$(grep -c " on $cpu\$" $W/out)
bad=$(grep -c ' on ' $W/out)
diag "$n of $bad events print on $cpu; $(grep ' on ' $W/out | head -n 2 | tr '\n' '|')"
[ "$n" -ge 20 ] || fail "$n events with \$cpu $cpu from 20 cats pinned there"
[ "$n" = "$bad" ] || fail "$((bad - n)) events print another CPU than the filter's"
awk -v c=$cpu '/ on / && $1 != c { bad = 1 } END { exit bad }' $W/out || fail "a -C column other than $cpu: $(head -n 3 $W/out)"
pass
