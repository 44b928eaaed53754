# vmtest-timeout: 1500
# Probes come and go while their functions are in flight: what crashed
# Debian sid's 7.2.13 twice here (a return to address 0 through the
# rethook trampoline; vm-tests/README.md, "Known problems"), once with no
# barebpf at all. Not a test of barebpf: a reproducer, run with
#   VMTEST_TCG=tcg VMTEST_SUITE=stress vm-tests/run.sh build/barebpf 7.x
# It passes when the kernel survives; the crash FAILs it.
# 1. tracefs only: 150 rounds of three kretprobes on the read path
#    (vfs_read, shmem_file_read_iter, copy_page_to_iter) added, enabled
#    for 0.2 s, disabled and removed, while two dd loops read tmpfs.
# 2. barebpf: 30 rounds of breakdown on the same functions (a kprobe and
#    a kretprobe each), started and stopped with SIGINT under the same load.
. /vmtest/lib.sh
need_tracefs
N=200
dd if=/dev/zero of=$W/file bs=4k count=$N 2>/dev/null || fail "cannot write $W/file"
loop() { ( while :; do dd if=$W/file of=/dev/null bs=512 2>/dev/null; done ) & bg=$!; }
j=0
while [ $j -lt 150 ]; do
	loop; bg1=$bg; loop
	k=0
	for f in vfs_read shmem_file_read_iter copy_page_to_iter; do
		echo "r:vmtest/p$k $f" >>$T/kprobe_events || fail "cannot add a kretprobe on $f"
		k=$((k + 1))
	done
	echo 1 >$T/events/vmtest/enable
	sleep 0.2
	echo 0 >$T/events/vmtest/enable
	echo >$T/kprobe_events
	kill $bg $bg1; wait $bg $bg1 2>/dev/null
	j=$((j + 1))
done
j=0
while [ $j -lt 30 ]; do
	loop; bg1=$bg; loop
	start_tool barebpf breakdown -t 1s vfs_read __vfs_read new_sync_read shmem_file_read_iter copy_page_to_iter
	wait_tracing 60
	sleep 0.5
	stop_tool INT
	kill $bg $bg1; wait $bg $bg1 2>/dev/null
	[ $RC = 0 ] || fail "breakdown round $j: exit $RC"
	j=$((j + 1))
done
pass
