# barebpf run on a libbpf-style object (tests/bpf/btf_maps.bpf.c, built with
# -g): maps declared in SEC(".maps") and read from the object's own BTF (never
# loaded into the kernel: 4.15 has none): a hash with a struct key, a per-CPU
# array, a map of maps filled from .values, a stack trace map (4.15's cannot
# be iterated: run probes its ids one by one) and a map pinned by name under
# /sys/fs/bpf, where run mounts a bpffs if there is none (unmounted first
# here, so that it must). The workload: a sleeping shell's context switches,
# each counted once in every map and its stacks named.
. /vmtest/lib.sh
need_tracefs
o=/vmtest/bpf/btf_maps.bpf.o
[ -f $o ] || skip "$(cat /vmtest/bpf/why 2>/dev/null || echo "no $o")"
bpffs() { awk '$2 == "/sys/fs/bpf" && $3 == "bpf"' /proc/mounts; }
had=$(bpffs)
[ -z "$had" ] || umount /sys/fs/bpf || fail "cannot unmount /sys/fs/bpf"
sh -c "while [ ! -f $W/stop ]; do sleep 0.05; done" &
SLEEPER=$!
trap "touch $W/stop" EXIT
start_tool barebpf run -j -c bb_tgid=$SLEEPER $o
wait_tracing 60 Running
sleep 2
stop_tool INT
mounted=$(bpffs)
pinned=no; [ -e /sys/fs/bpf/bbtest_btfpin ] && pinned=yes
rm -f /sys/fs/bpf/bbtest_btfpin
[ -n "$mounted" ] && [ -z "$had" ] && umount /sys/fs/bpf
[ -n "$had" ] && [ -z "$(bpffs)" ] && mount -t bpf bpf /sys/fs/bpf
[ $RC = 0 ] || fail "exit $RC: $(cat $W/err)"
[ -n "$mounted" ] || fail "no bpffs at /sys/fs/bpf after run pinned a map: $(cat $W/err)"
[ $pinned = yes ] || fail "bbtest_btfpin was not pinned under /sys/fs/bpf"
value() { grep -o "$1[0-9]*" $W/out | head -n 1 | sed 's/.*://'; }
c=$(value "\"map\":\"counts\",\"key\":{\"tgid\":$SLEEPER,\"tag\":7},\"value\":")
p=$(value '"map":"percpu","key":0,"sum":')
i=$(value '"map":"inner1","key":0,"value":')
b=$(value '"map":"bbtest_btfpin","key":0,"value":')
diag "switches counted: hash $c, per-CPU sum $p, inner map $i, pinned $b"
[ -n "$c" ] && [ "$c" -gt 0 ] || fail "counts: no value for the sleeper ($SLEEPER)"
[ "$p" = "$c" ] && [ "$i" = "$c" ] && [ "$b" = "$c" ] ||
	fail "the maps disagree: hash $c, per-CPU $p, inner $i, pinned $b"
grep '"map":"stacks","stackid":' $W/out | grep -q 'schedule' ||
	fail "no stack through schedule in the stack map: $(grep -c stackid $W/out) stacks"
pass
