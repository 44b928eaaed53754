# oomkill names the victim of an OOM kill provoked in the guest: a dd
# whose 64 MiB buffer does not fit in a memory cgroup of 8 MiB (v2's
# memory.max, else v1's limit), or where the kernel has no memory
# cgroup, four dd's with buffers of a third of the guest's available
# memory each (barebpf itself is exempt, oom_score_adj -1000). bcc's
# line, the victim's pid and name (from mark_victim where it has it, 6.1
# on; else from the SIGKILL's signal_generate; its pages "?" once it is
# gone), exits 0. Before 4.13 (no
# oom:mark_victim) it must say so and exit 1. The OOM report's Call Trace
# is between markers that the kernel-log check leaves out.
. /vmtest/lib.sh
need_tracefs
if [ ! -d $T/events/oom/mark_victim ]; then
	barebpf oomkill >$W/out 2>$W/err
	RC=$?
	[ $RC = 1 ] && grep -q 'no oom:mark_victim tracepoint' $W/err ||
		fail "exit $RC without mark_victim: $(cat $W/err)"
	pass
fi
CG=
memcg() {
	mkdir -p /sys/fs/cgroup
	if mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null &&
	   echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null &&
	   mkdir /sys/fs/cgroup/oom && echo 8M >/sys/fs/cgroup/oom/memory.max; then
		CG=/sys/fs/cgroup/oom
		return 0
	fi
	umount /sys/fs/cgroup 2>/dev/null
	if mount -t cgroup -o memory none /sys/fs/cgroup 2>/dev/null &&
	   mkdir /sys/fs/cgroup/oom && echo 8M >/sys/fs/cgroup/oom/memory.limit_in_bytes; then
		CG=/sys/fs/cgroup/oom
		return 0
	fi
	umount /sys/fs/cgroup 2>/dev/null
	return 1
}
uncg() { [ -n "$CG" ] && { rmdir $CG; umount /sys/fs/cgroup; }; }
start_tool barebpf oomkill
echo -1000 >/proc/$TOOL_PID/oom_score_adj
wait_tracing 60
# the OOM killer's report (a Call Trace) is what this case asks for
echo "vmtest: expected report begins" >/dev/kmsg
if memcg; then
	bs=64M
	sh -c "echo \$\$ >$CG/cgroup.procs; exec dd if=/dev/zero of=/dev/null bs=$bs count=1" 2>/dev/null &
	PIDS=$!
else
	# four buffers of a third of what is available each: each is
	# granted (the heuristic overcommit weighs one allocation at a
	# time), together they do not fit
	bs=$(awk '$1 == "MemAvailable:" { print int($2 / 3) }' /proc/meminfo)k
	PIDS=
	for i in 1 2 3 4; do
		dd if=/dev/zero of=/dev/null bs=$bs count=1 2>/dev/null &
		PIDS="$PIDS $!"
	done
fi
st=0
for p in $PIDS; do wait $p; s=$?; [ $s = 137 ] && st=137; done
echo "vmtest: expected report ends" >/dev/kmsg
i=0
while ! grep -q 'OOM kill of PID' $W/out && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
stop_tool INT 60
uncg
[ $st = 137 ] || fail "no dd bs=$bs was killed (cgroup '${CG:-none}')"
[ $RC = 0 ] || fail "exit $RC: $(tail -n 3 $W/err)"
ok=
for p in $PIDS; do
	grep -qE "^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] Triggered by PID [0-9]+ \(\"[^\"]*\"\), OOM kill of PID $p \(\"dd\"\), ([0-9]+|\?) pages, loadavg: " $W/out && ok=1
done
[ -n "$ok" ] || fail "no line naming a dd ($PIDS) as the victim (cgroup '${CG:-none}')"
diag "$(grep 'OOM kill of' $W/out) (cgroup '${CG:-none}')"
pass
