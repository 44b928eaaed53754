# funccount -d 8 (tool symlink, bcc's text) on blk_mq_start_request while
# a plain tracefs kprobe counts the same function: N direct reads of
# nullb0 are N calls for both (kprobe_profile's hits), and the tool exits
# by itself with bcc's "Detaching...", nothing left behind.
. /vmtest/lib.sh
need_tracefs
F=blk_mq_start_request
# (riscv64 6.12 refuses a kprobe on a function's ftrace patch site, its
# first 8 bytes: there the reference goes right past it, as barebpf's own)
echo "p:vmtest_fc/start $F" >>$T/kprobe_events 2>/dev/null ||
	{ [ "$(uname -m)" = riscv64 ] && echo "p:vmtest_fc/start $F+8" >>$T/kprobe_events; } ||
	fail "cannot add a kprobe on $F"
echo 1 >$T/events/vmtest_fc/enable
start_tool funccount -d 8 $F
wait_tracing 60
h0=$(awk '$1 == "start" { print $2 }' $T/kprobe_profile)
workload
h1=$(awk '$1 == "start" { print $2 }' $T/kprobe_profile)
wait_exit 60 "-d 8"
echo 0 >$T/events/vmtest_fc/enable
echo '-:vmtest_fc/start' >>$T/kprobe_events
[ $RC = 0 ] || fail "exit $RC"
grep -q "^Tracing 1 functions for \"$F\"... Hit Ctrl-C to end.\$" $W/out || fail "no bcc Tracing line"
grep -qE '^FUNC +COUNT$' $W/out || fail "no 'FUNC COUNT' header"
tail -n 1 $W/out | grep -q '^Detaching...$' || fail "no Detaching... at the end"
c=$(awk -v f=$F '$1 == f { print $2 }' $W/out)
[ $((h1 - h0)) = $N ] || fail "the tracefs kprobe counted $((h1 - h0)) calls for $N reads"
[ "$c" = $((h1 - h0)) ] || fail "funccount counted '$c' calls, the tracefs kprobe $((h1 - h0))"
no_probes_left "exit"
pass
