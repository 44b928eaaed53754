# Returns lost to a small maxactive are counted, through either kind of
# probe: 20 direct-I/O readers of nullb1, a disk of 500 ms reads, keep about
# 20 calls of blkdev_read_iter in flight, funclatency -M 2 asks for 2
# instances. Every one of the 100 calls is either in the histogram or
# reported missed, and some are missed. Where the kprobe PMU exists
# (kretprobes made with the kernel's default, max(10, 2 * CPUs), counted by
# program run counts), then again through kprobe_events (maxactive 2,
# kprobe_profile), the only way on 4.15. With nullb0's 17 ms reads, fewer
# than the PMU's 10 were once in flight at a time (arm64 6.1, a busy host,
# single-threaded TCG); at 500 ms a read, the readers would have to start
# seconds apart for that.
. /vmtest/lib.sh
need_tracefs
F=blkdev_read_iter
grep -qx "$F" $T/available_filter_functions || skip "no $F on this kernel"
slow_disk 500
# The readers start together: started one after the other under TCG (a
# fork and exec each) the first were done before the last began, and fewer
# than the PMU's 10 instances were ever in flight (arm64 6.1, a busy host).
readers() {
	local r DD=
	rm -f $W/go
	for r in $(seq 20); do
		(while [ ! -e $W/go ]; do sleep 0.05; done
		 exec dd if=/dev/nullb1 of=/dev/null bs=4k iflag=direct count=5 skip=$((r * 10)) 2>/dev/null) &
		DD="$DD $!"
	done
	sleep 1
	touch $W/go
	wait $DD
}
check() { # check LABEL
	wait_tracing 60
	readers
	sleep 1
	stop_tool INT
	[ $RC = 0 ] || fail "$1: exit $RC after SIGINT"
	c=$(json_count $W/out)
	m=$(sed -n 's/.*warning: \([0-9]*\) call(s) entered without their return.*/\1/p' $W/err)
	diag "$1: $c calls timed, ${m:-0} reported missed"
	[ -n "$m" ] || fail "$1: no missed return reported, $c of 100 calls timed"
	[ $((c + m)) = 100 ] || fail "$1: $c timed + $m missed != 100 calls"
}
if have_kprobe_pmu; then
	start_tool barebpf funclatency -v -M 2 -j $F
	check "PMU"
	grep -q "through kprobe_events" $W/err && fail "PMU: $(grep 'through kprobe_events' $W/err)"
fi
start_tool env BAREBPF_KPROBES=tracefs barebpf funclatency -M 2 -j $F
check "kprobe_events"
no_probes_left "SIGINT"
pass
