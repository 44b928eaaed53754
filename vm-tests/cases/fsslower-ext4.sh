# ext4slower -j 10 on an ext4 made on nullb1 (memory-backed, requests of
# 40 ms: slow_ext4): after the caches are dropped, a read of 16 KiB at
# offset 32 KiB of slow-a (a miss: slow), an fsync of slow-b, and an fsync
# of a file whose name has a newline, an ESC and a byte that is not UTF-8
# are each listed with the right name, type, size and offset; a read of
# fast-c, cached before the start, is not (nor any operation on it). The
# same from its text output (bcc's header, the hostile name escaped);
# BAREBPF_FIELDS=discover finds the offsets BTF gives (where the kernel
# has BTF); -t xfs where the kernel has no xfs is a refusal that names
# it; nothing is left in kprobe_events after any exit. Where there is no
# slow disk to make it on (4.9: null_blk has no memory_backed; FS_SLOW=0),
# on a loop device, with min_ms 0: the same operations listed right, and
# none on fast-c's name is then checked only as far as the reads of a
# tmpfs file (generic_file_read_iter too, on 4.9) are not listed.
. /vmtest/lib.sh
need_tracefs
slow_ext4 40
M=$FS_M
BAD=$(printf 'h\033[31m\nx\377y')
dd if=/dev/zero of=$M/slow-a bs=16k count=8 2>/dev/null
dd if=/dev/zero of=$M/fast-c bs=4k count=4 2>/dev/null
: >$M/slow-b
: >"$M/$BAD"
sync
echo 3 >/proc/sys/vm/drop_caches
cat $M/fast-c >/dev/null
MIN=10
[ $FS_SLOW = 1 ] || MIN=0
echo tmpfs-data >$W/tmpfs-file
run_ops() {
	start_tool barebpf ext4slower $1 $MIN
	wait_tracing 120
	cat $W/tmpfs-file >/dev/null
	dd if=$M/fast-c of=/dev/null bs=4k count=1 skip=1 2>/dev/null
	dd if=$M/slow-a of=/dev/null bs=16k count=1 skip=2 2>/dev/null
	dd if=/dev/zero of=$M/slow-b bs=4k count=3 seek=5 conv=notrunc,fsync 2>/dev/null
	dd if=/dev/zero of="$M/$BAD" bs=4k count=1 conv=notrunc,fsync 2>/dev/null
	dd if=$M/fast-c of=/dev/null bs=4k count=1 skip=1 2>/dev/null
	stop_tool INT
	[ $RC = 0 ] || fail "exit $RC after SIGINT: $(tail -n 3 $W/err)"
	no_probes_left "SIGINT"
}
run_ops -j
diag "$(cat $W/out)"
grep -q '"type":"R","bytes":16384,"offset":32768,.*"file":"slow-a"' $W/out ||
	fail "no read of 16384 bytes at 32768 of slow-a"
grep -q '"type":"S","bytes":0,"offset":0,.*"file":"slow-b"' $W/out ||
	fail "no fsync of slow-b"
grep -q '"type":"S",.*"file":"h\\u001b\[31m\\nx\\u00ffy"' $W/out ||
	fail "no fsync of the hostile name, escaped"
grep -q tmpfs-file $W/out && fail "a read of a tmpfs file is listed"
if [ $FS_SLOW = 1 ]; then
	grep -q 'fast-c' $W/out && fail "an operation on fast-c (cached) is listed"
	[ $(wc -l <$W/out) -le 8 ] || fail "more lines than the slow operations: $(wc -l <$W/out)"
fi
grep -q "$(printf '\033')" $W/out && fail "a raw ESC in the output"
grep -q 'Tracing ext4 operations' $W/err || fail "no Tracing line on stderr with -j"
# the text: bcc's header, the same lines
sync
echo 3 >/proc/sys/vm/drop_caches
cat $M/fast-c >/dev/null
run_ops ""
diag "$(cat $W/out)"
head -n 2 $W/out | grep -q '^TIME     COMM           PID     T BYTES   OFF_KB   LAT(ms) FILENAME$' ||
	fail "not bcc's header"
awk '$4 == "R" && $5 == 16384 && $6 == 32 && $8 == "slow-a"' $W/out | grep -q . || fail "text: no read of slow-a"
awk '$4 == "S" && $8 == "slow-b"' $W/out | grep -q . || fail "text: no fsync of slow-b"
grep -q 'h\\x1b\[31m\\nx\\xffy$' $W/out || fail "text: the hostile name not escaped"
[ $FS_SLOW = 1 ] && grep -q 'fast-c' $W/out && fail "text: an operation on fast-c"
# the discovery against BTF
if [ -e /sys/kernel/btf/vmlinux ]; then
	barebpf ext4slower -v -d 0.2 >/dev/null 2>$W/btf.err || fail "ext4slower -v: $(tail -n 2 $W/btf.err)"
	BAREBPF_FIELDS=discover barebpf ext4slower -v -d 0.2 >/dev/null 2>$W/disc.err || fail "discover: $(tail -n 2 $W/disc.err)"
	grep -o '^[a-z_.]* at offset [0-9]*' $W/btf.err >$W/btf.off
	grep -o '^[a-z_.]* at offset [0-9]*' $W/disc.err >$W/disc.off
	diag "BTF: $(tr '\n' ' ' <$W/btf.off); discovered: $(tr '\n' ' ' <$W/disc.off)"
	grep -q discovered $W/disc.err || fail "BAREBPF_FIELDS=discover: nothing discovered"
	[ -s $W/btf.off ] && cmp -s $W/btf.off $W/disc.off || fail "discovered offsets differ from BTF's"
	ls -a $M | grep -q barebpf-fsdisc && fail "the discovery's files are left"
	no_probes_left "the discovery"
fi
# hostile: stdout closed (refused at start), piped into head (SIGPIPE at
# the first record after it is gone), two SIGINTs at once (one clean
# exit); nothing left after any
barebpf ext4slower 0 >&- 2>$W/closed.err && fail "exit 0 with stdout closed"
grep -q 'standard output is closed' $W/closed.err || fail "stdout closed, not said: $(cat $W/closed.err)"
no_probes_left "a closed stdout"
( sleep 3; i=0; while [ $i -lt 20 ]; do cat $M/fast-c >/dev/null; sleep 0.2; i=$((i + 1)); done ) &
t0=$(date +%s)
barebpf ext4slower -d 30 0 2>/dev/null | head -n 1 >/dev/null
t1=$(date +%s)
wait
[ $((t1 - t0)) -lt 20 ] || fail "ext4slower 0 | head -n 1 ran $((t1 - t0)) s"
no_probes_left "SIGPIPE"
start_tool barebpf ext4slower 0
wait_tracing 120
kill -INT $TOOL_PID; kill -INT $TOOL_PID
wait_exit 30 "two SIGINTs"
[ $RC = 0 ] || fail "exit $RC after two SIGINTs"
# the second may hand the rest of the detach to a child that finishes it
i=0; while our_probes >/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
no_probes_left "two SIGINTs (10 s later)"
# a file system the kernel lacks
if ! grep -qw xfs_file_open /proc/kallsyms; then
	barebpf fsslower -t xfs >$W/xfs.out 2>$W/xfs.err && fail "-t xfs: exit 0 without xfs"
	grep -q 'this kernel has no xfs' $W/xfs.err || fail "-t xfs: not said: $(cat $W/xfs.err)"
	no_probes_left "-t xfs"
fi
pass
