# drsnoop -j while dd, alone in a memory cgroup of 8 MiB, reads 32 MiB of
# a loop device through the page cache: the cgroup's clean page cache must
# be reclaimed by dd itself (a memory cgroup has no kswapd of its own:
# mm_vmscan_memcg_reclaim_*), so there are lines, every one dd's, flagged
# memcg, whose pages add up to most of the 24 MiB beyond the limit.
# SKIP where the kernel has no memory cgroups (CONFIG_MEMCG).
. /vmtest/lib.sh
need_tracefs
[ -d $T/events/vmscan/mm_vmscan_direct_reclaim_begin ] || fail "no vmscan tracepoints"
# loaded and attached on every kernel, memory cgroups or not; -e where
# the kernel lists vm_zone_stat (CONFIG_KALLSYMS_ALL)
E=
grep -q ' vm_zone_stat$' /proc/kallsyms && E=-e
start_tool barebpf drsnoop -j $E
wait_tracing 60
mkdir -p $W/cg
# v2 where it has the memory controller (7.x lists no v2 controller in
# /proc/cgroups), else v1's
if mount -t cgroup2 none $W/cg 2>/dev/null && grep -qw memory $W/cg/cgroup.controllers &&
	echo +memory >$W/cg/cgroup.subtree_control 2>/dev/null; then
	LIMIT=memory.max
else
	umount $W/cg 2>/dev/null
	if ! mount -t cgroup -o memory none $W/cg 2>/dev/null; then
		stop_tool INT
		[ $RC = 0 ] || fail "exit $RC after SIGINT"
		skip "this kernel has no memory cgroups (CONFIG_MEMCG): nothing provokes reclaim in a small guest without one (drsnoop loaded, attached and exited 0)"
	fi
	LIMIT=memory.limit_in_bytes
fi
mkdir $W/cg/bb && echo $((8 << 20)) >$W/cg/bb/$LIMIT || fail "cannot set $LIMIT"
dd if=/dev/zero of=$W/loop.img bs=1M count=32 2>/dev/null || fail "no room for a 32 MiB file"
losetup /dev/loop0 $W/loop.img || fail "losetup failed"
sh -c "echo \$\$ >$W/cg/bb/cgroup.procs && exec dd if=/dev/loop0 of=/dev/null bs=64k" 2>$W/dd.err ||
	fail "dd in the cgroup failed: $(cat $W/dd.err)"
sleep 0.5
stop_tool INT
losetup -d /dev/loop0
rmdir $W/cg/bb 2>/dev/null; umount $W/cg 2>/dev/null
[ $RC = 0 ] || fail "exit $RC after SIGINT"
n=$(grep -c '^{' $W/out)
dd=$(grep -c '"comm":"dd",.*"memcg":true}$' $W/out)
pages=$(grep -o '"pages":[0-9]*' $W/out | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }')
diag "$n reclaims, $dd of dd in its cgroup, $pages pages"
[ "$n" -ge 1 ] || fail "no reclaim reported"
[ "$dd" = "$n" ] || fail "$((n - dd)) lines not of dd's memcg reclaim: $(grep -v '"comm":"dd"' $W/out | head -n 1)"
[ "$pages" -ge $((24 * 256 / 2)) ] || fail "$pages pages reclaimed for 24 MiB over the limit"
if [ -n "$E" ]; then
	# the guest's free memory, in KiB: some, and less than its 512 MiB
	bad=$(grep -o '"free_kb":[0-9]*' $W/out | cut -d: -f2 | awk '$1 == 0 || $1 > 524288' | head -n 1)
	[ $(grep -c '"free_kb":' $W/out) = $n ] && [ -z "$bad" ] || fail "-e: free_kb missing or out of range ('$bad')"
	diag "-e: free_kb $(grep -o '"free_kb":[0-9]*' $W/out | head -n 1)"
fi
grep -q "drsnoop: $n reclaims printed, 0 lost" $W/err || fail "no '$n reclaims printed, 0 lost' on stderr"
pass
