# trace -K on the queue freeze function (the article's `trace -K -U
# blk_freeze_queue`) while a helper named schedflip switches nullb0's
# scheduler back and forth: as many events as the kernel's own kprobe
# counted for as many switches (one a switch; two on 6.12), each with the
# helper's name and a kernel stack, as many through elv_iosched_store as
# the kernel's own stack traces show; nothing of ours left afterwards.
. /vmtest/lib.sh
need_tracefs
q=/sys/block/nullb0/queue/scheduler
[ -w $q ] || fail "no $q"
# The function that starts a freeze, under the names it has had, and the
# two schedulers to switch between (writing the current one again does
# not switch, so it does not freeze).
freeze_calibrate
fn=$FREEZE_FN cur=$CUR other=$OTHER
diag "scheduler: $(cat $q); freeze function: $fn"
[ "$FREEZE_ELV2" -ge 2 ] || fail "the kernel's own stacks of $fn show no elv_iosched_store"
SWITCHES=4
cat >$W/schedflip <<-EOF
	#!/bin/sh
	for s in $other $cur $other $cur; do echo \$s >$q || exit 1; done
EOF
chmod +x $W/schedflip

start_tool barebpf trace -K $fn
wait_tracing 60
$W/schedflip || fail "schedflip could not write $q"
sleep 1
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
# the Tracing line, then bcc's header
sed -n 2p $W/out | grep -qE '^PID +TID +COMM +FUNC$' || fail "no 'PID TID COMM FUNC' header after the Tracing line"
# Per event: its line, then frames (8 blanks), then a blank line.
awk -v fn=$fn '
	$0 ~ "^[0-9]+ +[0-9]+ " { ev++; inev = 1; if ($3 == "schedflip" && $4 == fn) mine++; next }
	inev && /^        [^ ]+\+0x[0-9a-f]+ \[kernel\]$/ { fr++; if ($1 ~ /^elv_iosched_store\+/) elv++; next }
	/^$/ { if (inev) { if (elv) withelv++; if (fr) withstack++ } inev = 0; elv = 0; fr = 0; next }
	END { printf "%d %d %d %d\n", ev, mine, withstack, withelv }' $W/out >$W/counts
read ev mine withstack withelv <$W/counts
sed -n '1,/^$/p' $W/out | sed 's/^/# | /' # the first event, as printed
diag "events $ev, by schedflip $mine, with a stack $withstack, through elv_iosched_store $withelv"
X=$((FREEZE_PER2 * SWITCHES / 2))
[ "$ev" = $X ] || fail "$ev events for $SWITCHES scheduler switches, the kernel's kprobe counted $X"
[ "$mine" = $X ] || fail "$mine events by schedflip calling $fn, for $X calls"
[ "$withstack" = $X ] || fail "$withstack events with a kernel stack"
[ "$withelv" = $((FREEZE_ELV2 * SWITCHES / 2)) ] || fail "$withelv stacks through elv_iosched_store, the kernel's own $((FREEZE_ELV2 * SWITCHES / 2))"
grep -q "^        $fn+0x[0-9a-f]* \[kernel\]\$" $W/out || fail "no $fn frame on top of the stacks"
grep -q lost $W/err && fail "events lost: $(cat $W/err)"
no_probes_left "SIGINT"
pass
