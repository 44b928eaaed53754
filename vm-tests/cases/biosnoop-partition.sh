# biosnoop -d on a partition: reads of nullb1p1 (an MBR partition at
# sector 2048 of a memory-backed null_blk) are requests of nullb1. Since
# 5.12 block_getrq reports the partition's dev while block_rq_* report the
# disk: each line must still name dd as the submitter, nullb1 as the disk,
# and the partition's sectors as absolute ones (2048 + 8 i).
. /vmtest/lib.sh
need_tracefs
C=/sys/kernel/config
grep -q configfs /proc/filesystems || skip "no configfs"
mount | grep -q " $C " || mount -t configfs none $C 2>/dev/null
[ -d $C/nullb ] || skip "null_blk has no configfs interface"
d=$C/nullb/nullb1
mkdir $d || fail "cannot make $d"
cleanup_disk() { echo 0 >$d/power; rmdir $d; }
{ echo 2 >$d/queue_mode && echo 0 >$d/irqmode && echo 64 >$d/size &&
	echo 1 >$d/memory_backed && echo 1 >$d/power; } 2>$W/setup.err ||
	{ rmdir $d; skip "cannot make a memory-backed null_blk: $(cat $W/setup.err)"; }
i=0; while [ ! -b /dev/nullb1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -b /dev/nullb1 ] || { cleanup_disk; fail "no /dev/nullb1"; }
# An MBR with one Linux partition: LBA 2048, 20000 sectors.
{ head -c 446 /dev/zero
  printf '\000\000\000\000\203\000\000\000\000\010\000\000\040\116\000\000'
  head -c 48 /dev/zero
  printf '\125\252'; } >$W/mbr
dd if=$W/mbr of=/dev/nullb1 bs=512 count=1 conv=notrunc 2>/dev/null || { cleanup_disk; fail "cannot write the MBR"; }
blockdev --rereadpt /dev/nullb1 2>$W/rr.err
i=0; while [ ! -b /dev/nullb1p1 ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
[ -b /dev/nullb1p1 ] || { cleanup_disk; skip "no partition on nullb1 (partitions off for null_blk here?): $(cat $W/rr.err)"; }
start_tool barebpf biosnoop -d nullb1p1
wait_tracing 60
dd if=/dev/nullb1p1 of=/dev/null bs=4k count=20 iflag=direct 2>$W/dd.err || { cleanup_disk; fail "dd failed: $(cat $W/dd.err)"; }
stop_tool INT
cleanup_disk
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep -q "nullb1p1 is a partition: tracing its disk, nullb1" $W/err || fail "no note that nullb1p1 is a partition of nullb1"
awk '!/^Tracing/ && !/^TIME\(s\)/' $W/out >$W/io
n=$(wc -l <$W/io)
[ "$n" = 20 ] || fail "$n lines for 20 reads"
bad=$(awk '$2 != "dd" || $4 != "nullb1" || $5 != "R" || $6 != 2048 + 8 * (NR - 1)' $W/io | head -n 1)
[ -z "$bad" ] || fail "not dd's read of nullb1 at sector 2048 + 8 i: '$bad'"
pass
