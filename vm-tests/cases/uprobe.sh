# uprobes on /vmtest/ucalls (tests/tools/ucalls.c, static, of the guest's
# architecture): `ucalls go 20` calls bb_ufunc(i) for i = 0..19, which
# returns i * 2. funccount counts exactly 20; trace prints every call with
# its argument (arg1 from each architecture's user pt_regs) and, as a
# return probe filtered on retval > 30, just the 4 last; nothing is left
# in uprobe_events (the uprobe PMU, 4.17+, leaves nothing there anyway; on
# 4.9 the probes go through uprobe_events). trace needs 4.11 (map values as
# helper memory): before, only funccount runs.
# USDT (tests/tools/sdt.h's notes): u:$U:hello prints each call's int and
# string (registers, each architecture's operands); bb:guarded, behind a
# semaphore, fires on every call where the kernel raises semaphores
# (ref_ctr_offset, 4.20+), and before that is refused, saying so.
. /vmtest/lib.sh
need_tracefs
U=/vmtest/ucalls
[ -x $U ] || skip "no $U for this architecture (no static cross compiler on the host)"
[ -e $T/uprobe_events ] || [ -e /sys/bus/event_source/devices/uprobe ] ||
	skip "no uprobes in this kernel (CONFIG_UPROBE_EVENTS)"
uprobes_left() { grep barebpf $T/uprobe_events 2>/dev/null; }

start_tool funccount $U:bb_ufunc
wait_tracing 60
[ -e /sys/bus/event_source/devices/uprobe ] && diag "uprobe PMU" ||
	diag "uprobe_events: $(grep -c barebpf $T/uprobe_events) line(s)"
$U go 20 >/dev/null || fail "ucalls failed"
stop_tool INT
[ $RC = 0 ] || fail "funccount exit $RC after SIGINT"
c=$(awk '$1 == "bb_ufunc" { print $2 }' $W/out)
[ "$c" = 20 ] || fail "funccount counted '$c' calls of bb_ufunc, not 20"
uprobes_left && fail "funccount left uprobes: $(uprobes_left | tr '\n' ';')"

[ $(kernel_version_code) -ge $((4 * 65536 + 11 * 256)) ] || pass
start_tool barebpf trace "p:$U:bb_ufunc \"arg=%d\", arg1"
wait_tracing 60
$U go 20 >/dev/null || fail "ucalls failed"
sleep 1
stop_tool INT
[ $RC = 0 ] || fail "trace exit $RC after SIGINT"
c=$(grep -c ' bb_ufunc  *arg=' $W/out)
[ "$c" = 20 ] || fail "trace printed $c calls, not 20"
for i in 0 1 7 19; do
	grep -q " arg=$i\$" $W/out || fail "no call with arg1 $i"
done
uprobes_left && fail "trace left uprobes: $(uprobes_left | tr '\n' ';')"

start_tool barebpf trace "r:$U:bb_ufunc (retval > 30) \"ret=%d\", retval"
wait_tracing 60
$U go 20 >/dev/null || fail "ucalls failed"
sleep 1
stop_tool TERM
[ $RC = 0 ] || fail "trace exit $RC after SIGTERM"
c=$(grep -c ' bb_ufunc  *ret=' $W/out)
[ "$c" = 4 ] || fail "trace printed $c returns above 30, not 4"
grep -q ' ret=38$' $W/out || fail "no return of 38"
uprobes_left && fail "trace -r left uprobes: $(uprobes_left | tr '\n' ';')"

start_tool barebpf trace "u:$U:hello \"h=%d %s\", arg1, arg2" \
	"u:$U:indexed \"x=%ld %d\", arg1, arg2"
wait_tracing 60
$U go 20 >/dev/null || fail "ucalls failed"
sleep 1
stop_tool INT
[ $RC = 0 ] || fail "trace u: exit $RC after SIGINT"
c=$(grep -c ' hello  *h=' $W/out)
[ "$c" = 20 ] || fail "trace printed $c USDT firings, not 20"
grep -q ' h=0 zero$' $W/out && grep -q ' h=7 one$' $W/out &&
	grep -q ' h=19 one$' $W/out || fail "USDT arguments wrong: $(head -n 5 $W/out | tr '\n' ';')"
# an array's element: (i % 3 + 1) * i, through a base and an index register
c=$(grep -c ' indexed  *x=' $W/out)
[ "$c" = 20 ] || fail "trace printed $c indexed firings, not 20"
grep -q ' x=2 1$' $W/out && grep -q ' x=14 7$' $W/out && grep -q ' x=38 19$' $W/out ||
	fail "indexed USDT argument wrong: $(grep indexed $W/out | head -n 5 | tr '\n' ';')"
uprobes_left && fail "trace u: left uprobes: $(uprobes_left | tr '\n' ';')"

if [ -e /sys/bus/event_source/devices/uprobe/format/ref_ctr_offset ]; then
	start_tool barebpf trace "u:$U:bb:guarded \"g=%ld %d\", arg1, arg2"
	wait_tracing 60
	g=$($U go 20) || fail "ucalls failed"
	sleep 1
	stop_tool INT
	[ $RC = 0 ] || fail "trace u: (semaphore) exit $RC after SIGINT"
	case $g in *"guarded 20"*) ;; *) fail "semaphore not raised: $g" ;; esac
	c=$(grep -c ' guarded  *g=' $W/out)
	[ "$c" = 20 ] || fail "trace printed $c guarded firings, not 20"
	grep -q ' g=57 19$' $W/out || fail "no guarded firing of 19"
else
	barebpf trace "u:$U:bb:guarded" >$W/out 2>&1 && fail "semaphore probe accepted without ref_ctr_offset"
	grep -q 'needs the kernel.s reference counter for uprobes (ref_ctr_offset, Linux 4.20+)' $W/out ||
		fail "no clear error for a semaphore before 4.20: $(cat $W/out)"
	diag "semaphore: refused (no ref_ctr_offset), as it should"
fi
case $($U go 3) in *guarded*) fail "semaphore left raised" ;; esac
uprobes_left && fail "trace u: left uprobes: $(uprobes_left | tr '\n' ';')"
pass
