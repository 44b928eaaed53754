# trace -K on the queue freeze function (the article's `trace -K -U
# blk_freeze_queue`) while a helper named schedflip switches nullb0's
# scheduler back and forth: one event per switch, each with the helper's
# name and a kernel stack through elv_iosched_store; nothing of ours left
# in kprobe_events afterwards.
. /vmtest/lib.sh
need_tracefs
q=/sys/block/nullb0/queue/scheduler
[ -w $q ] || fail "no $q"
# The function that starts a freeze, under the names it has had.
fn=
for f in blk_freeze_queue_start blk_freeze_queue blk_mq_freeze_queue; do
	awk -v f=$f '$1 == f { found = 1 } END { exit !found }' \
		$T/available_filter_functions && { fn=$f; break; }
done
[ -n "$fn" ] || fail "no freeze function in available_filter_functions"
diag "scheduler: $(cat $q); freeze function: $fn"
# Two schedulers: the current one and another (writing the current one
# again does not switch, so it does not freeze).
cur=$(sed 's/.*\[\(.*\)\].*/\1/' $q)
other=$(tr -d '[]' <$q | tr ' ' '\n' | grep -v "^$cur\$" | grep . | head -n 1)
[ -n "$other" ] || fail "only one scheduler: $(cat $q)"
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
head -n 1 $W/out | grep -qE '^PID +TID +COMM +FUNC$' || fail "no 'PID TID COMM FUNC' header"
# Per event: its line, then frames (8 blanks), then a blank line.
awk -v fn=$fn '
	$0 ~ "^[0-9]+ +[0-9]+ " { ev++; inev = 1; if ($3 == "schedflip" && $4 == fn) mine++; next }
	inev && /^        [^ ]+\+0x[0-9a-f]+ \[kernel\]$/ { fr++; if ($1 ~ /^elv_iosched_store\+/) elv++; next }
	/^$/ { if (inev) { if (elv) withelv++; if (fr) withstack++ } inev = 0; elv = 0; fr = 0; next }
	END { printf "%d %d %d %d\n", ev, mine, withstack, withelv }' $W/out >$W/counts
read ev mine withstack withelv <$W/counts
sed -n '1,/^$/p' $W/out | sed 's/^/# | /' # the first event, as printed
diag "events $ev, by schedflip $mine, with a stack $withstack, through elv_iosched_store $withelv"
[ "$ev" = $SWITCHES ] || fail "$ev events for $SWITCHES scheduler switches"
[ "$mine" = $SWITCHES ] || fail "$mine events by schedflip calling $fn, for $SWITCHES switches"
[ "$withstack" = $SWITCHES ] || fail "$withstack events with a kernel stack"
[ "$withelv" = $SWITCHES ] || fail "$withelv stacks through elv_iosched_store"
grep -q "^        $fn+0x[0-9a-f]* \[kernel\]\$" $W/out || fail "no $fn frame on top of the stacks"
grep -q lost $W/err && fail "events lost: $(cat $W/err)"
no_probes_left "SIGINT"
pass
