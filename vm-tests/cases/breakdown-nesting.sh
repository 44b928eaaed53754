# A known nesting: dd reads a file on tmpfs N times (4 KiB each), and
# breakdown times vfs_read with the functions a read goes through
# (__vfs_read and new_sync_read where this kernel has them, then
# shmem_file_read_iter, which copies with copy_page_to_iter). Every call
# is a record (-t 0): exactly N of them, shmem_file_read_iter called once
# in each, N in the summary; the direct children's totals never exceed
# vfs_read's time, nor a nested child's its parent's.
. /vmtest/lib.sh
need_tracefs
N=200
dd if=/dev/zero of=$W/file bs=4k count=$N 2>/dev/null || fail "cannot write $W/file"
grep -qw shmem_file_read_iter $T/available_filter_functions || skip "no shmem_file_read_iter to probe"
start_tool barebpf breakdown -u -t 0 -n dd vfs_read __vfs_read new_sync_read \
	shmem_file_read_iter copy_page_to_iter
wait_tracing 60
dd if=$W/file of=/dev/null bs=4k count=$N 2>/dev/null || fail "dd failed"
sleep 1
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
n=$(grep -c '^[0-9][0-9]:.* dd ' $W/out)
[ "$n" = $N ] || fail "$n records, not $N (one per read)"
one=$(grep -c '^ *shmem_file_read_iter  *1 ' $W/out)
[ "$one" = $N ] || fail "shmem_file_read_iter called once in $one records of $N"
grep -q "^vfs_read: $N calls, $N of them at least 0 us" $W/out || fail "summary: $(grep '^vfs_read:' $W/out)"
sum=$(awk '$1 == "shmem_file_read_iter" && NF == 4 { print $2 }' $W/out)
[ "$sum" = $N ] || fail "summary: shmem_file_read_iter calls '$sum', not $N"
# per record, rows in tree order (a row at depth d is indented 4 + 2(d-1)
# and belongs to the last row one level up; depth 0 is vfs_read): the
# totals of each row's children never exceed its own
bad=$(awk '
	function close_to(d,  k) {
		for (k = cur; k >= d; k--)
			if (psum[k] > ptot[k]) print "record " r ": children of depth " k " sum " psum[k] " > " ptot[k]
		cur = d
	}
	/^[0-9][0-9]:/ { if (r) close_to(0); r++; ptot[0] = $5; psum[0] = 0; cur = 0; next }
	/^    / && NF == 5 && $1 != "FUNCTION" {
		match($0, /^ */); d = (RLENGTH - 4) / 2 + 1
		if (d <= cur) close_to(d)
		psum[d - 1] += $3; ptot[d] = $3; psum[d] = 0; cur = d
	}
	/^$/ { if (r) close_to(0) }
	END { if (r) close_to(0) }' $W/out | head -n 1)
[ -z "$bad" ] || fail "children longer than their parent: $bad"
self_neg=$(awk '$1 == "[self]" && $2 < 0' $W/out | head -n 1)
[ -z "$self_neg" ] || fail "negative self time: $self_neg"
diag "$(grep -A8 '^[0-9][0-9]:.* dd ' $W/out | head -n 8)"
# The cost (figures only, no threshold: TCG's speed swings with the
# host): reads/s of 512-byte reads of the file, without the tool, with it
# (-t 1s: every call timed, none printed), without again.
rps() {
	local t0 t1 i=0
	t0=$(cut -d' ' -f1 /proc/uptime | tr -d .)
	while [ $i -lt 5 ]; do dd if=$W/file of=/dev/null bs=512 2>/dev/null; i=$((i + 1)); done
	t1=$(cut -d' ' -f1 /proc/uptime | tr -d .)
	echo $((5 * N * 8 * 100 / (t1 - t0 + (t1 == t0))))
}
b0=$(rps)
start_tool barebpf breakdown -t 1s vfs_read __vfs_read new_sync_read shmem_file_read_iter copy_page_to_iter
wait_tracing 60
w=$(rps)
stop_tool INT
b1=$(rps)
diag "cost: vfs_read of 512 bytes on tmpfs, reads/s without $b0 / $b1, with breakdown $w ($(grep -o 'Tracing.*children' $W/out))"
pass
