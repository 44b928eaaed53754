# ext4dist on an ext4 made on nullb1 (slow_ext4): a known workload of 4
# opens, 6 reads, 4 writes and 1 fsync on it, and every one is counted in
# its operation's histogram (nothing else uses ext4 in the guest); -m
# counts the same in msecs, -j in its JSON buckets; exits by itself
# after interval count.
. /vmtest/lib.sh
need_tracefs
slow_ext4 5
M=$FS_M
dd if=/dev/zero of=$M/f bs=4k count=8 2>/dev/null
sync
ops() {
	for i in 1 2 3; do dd if=$M/f of=/dev/null bs=4k count=2 2>/dev/null; done
	dd if=/dev/zero of=$M/g bs=4k count=4 conv=notrunc,fsync 2>/dev/null
}
counts() { awk '/^operation = / { op = $3 } $2 == "->" && $4 == ":" { s[op] += $5 }
	END { printf "read=%d write=%d open=%d fsync=%d\n", s["read"], s["write"], s["open"], s["fsync"] }' $W/out; }
for m in "" -m; do
	start_tool barebpf ext4dist $m
	wait_tracing 120
	ops
	stop_tool INT
	[ $RC = 0 ] || fail "exit $RC after SIGINT: $(tail -n 3 $W/err)"
	no_probes_left "SIGINT"
	got=$(counts)
	diag "ext4dist $m: $got"
	[ "$got" = "read=6 write=4 open=4 fsync=1" ] || fail "ext4dist $m counted $got: $(cat $W/out)"
	grep -q "usecs\|msecs" $W/out || fail "no unit label"
done
# -j: one JSON object, every operation in its buckets (15)
start_tool barebpf ext4dist -j
wait_tracing 120
ops
stop_tool INT
[ $RC = 0 ] || fail "-j: exit $RC after SIGINT: $(tail -n 3 $W/err)"
[ "$(json_bucket_sum $W/out)" = 15 ] || fail "-j: $(json_bucket_sum $W/out) operations in the buckets, not 15: $(cat $W/out)"
for op in read write open fsync; do
	json_flat $W/out | grep -q "\"name\":\"$op\"" || fail "-j: no $op: $(cat $W/out)"
done
no_probes_left "-j"
# interval count: exits by itself
start_tool barebpf ext4dist 1 2
wait_exit 60 "1 2"
[ $RC = 0 ] || fail "ext4dist 1 2: exit $RC"
no_probes_left "interval count"
pass
