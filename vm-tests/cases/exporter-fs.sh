# barebpf exporter --collectors fs on an ext4 made on nullb1 (slow_ext4):
# every op of ext4 is a series of barebpf_fs_operation_latency_seconds
# from the first scrape; a known workload of 6 reads, 8 writes, 5 opens
# and 2 fsyncs on it moves the ext4 _count of each op by exactly that
# (nothing else uses ext4 in the guest, as fsdist-ext4), the read _sum
# grows; xfs, btrfs, nfs, f2fs have series only where /proc/kallsyms has
# their functions, at 0 (a type the exporter says it left out, for want
# of BTF and a mount of it to discover its fields, has none). No probe is
# left.
. /vmtest/lib.sh
need_tracefs
ifconfig lo 127.0.0.1 up 2>/dev/null || ip link set lo up 2>/dev/null
slow_ext4 5
M=$FS_M
dd if=/dev/zero of=$M/f bs=4k count=8 2>/dev/null
sync
URL=http://127.0.0.1:19438/metrics
N=barebpf_fs_operation_latency_seconds
val() { awk -v s="$1" '$1 == s { print $2 }' $2; }
scrape() { sleep 1.5; wget -q -O $W/$1 $URL || fail "no answer from $URL"; }
start_tool barebpf exporter -i 1 --listen 127.0.0.1:19438 -c fs
wait_tracing 120 Exporting
scrape m0
grep -q '^barebpf_collector_enabled{collector="fs"} 1$' $W/m0 || fail "fs off: $(cat $W/err)"
for op in read write open fsync; do
	[ -n "$(val "${N}_count{fs=\"ext4\",op=\"$op\"}" $W/m0)" ] || fail "no ext4 $op series from the start: $(grep $N $W/m0 | head)"
done
for i in 1 2 3; do dd if=$M/f of=/dev/null bs=4k count=2 2>/dev/null; done
for i in 1 2; do dd if=/dev/zero of=$M/g bs=4k count=4 conv=notrunc,fsync 2>/dev/null; done
scrape m1
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT: $(cat $W/err)"
got=
for op in read write open fsync; do
	c0=$(val "${N}_count{fs=\"ext4\",op=\"$op\"}" $W/m0)
	c1=$(val "${N}_count{fs=\"ext4\",op=\"$op\"}" $W/m1)
	got="$got $op=$((c1 - c0))"
done
diag "ext4:$got"
[ "$got" = " read=6 write=8 open=5 fsync=2" ] || fail "ext4 counted$got, not read=6 write=8 open=5 fsync=2: $(grep "$N.*ext4" $W/m1 | grep -v bucket)"
s0=$(val "${N}_sum{fs=\"ext4\",op=\"read\"}" $W/m0)
s1=$(val "${N}_sum{fs=\"ext4\",op=\"read\"}" $W/m1)
awk -v a="$s0" -v b="$s1" 'BEGIN { exit !(b > a) }' || fail "ext4 read _sum $s0 -> $s1"
inf=$(val "${N}_bucket{fs=\"ext4\",op=\"fsync\",le=\"+Inf\"}" $W/m1)
c1=$(val "${N}_count{fs=\"ext4\",op=\"fsync\"}" $W/m1)
[ "$inf" = "$c1" ] || fail "fsync +Inf bucket $inf, _count $c1"
for t in xfs:xfs_file_open btrfs:btrfs_file_open nfs:nfs_file_open f2fs:f2fs_file_open; do
	fs=${t%%:*}; fn=${t#*:}
	has=$(awk -v f="$fn" '$3 == f { print 1; exit }' /proc/kallsyms)
	n=$(grep -c "^${N}_count{fs=\"$fs\"," $W/m0)
	diag "$fs: in kallsyms '${has:-no}', series $n"
	if [ -z "$has" ]; then
		[ "$n" = 0 ] || fail "$fs: $n series, and no $fn in kallsyms"
	elif grep -q "fs: $fs is left out" $W/err; then
		[ "$n" = 0 ] || fail "$fs left out, but $n series"
	else
		[ "$n" = 4 ] || fail "$fs in kallsyms, $n series of 4: $(cat $W/err)"
		for op in read write open fsync; do
			[ "$(val "${N}_count{fs=\"$fs\",op=\"$op\"}" $W/m0)" = 0 ] || fail "$fs $op not at 0"
		done
	fi
done
no_probes_left "SIGINT"
pass
