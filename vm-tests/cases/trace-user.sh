# trace -K -U -M: kernel and user stacks on this kernel's kprobes, and an
# exit of its own after MAXEVENTS. The writer is busybox (static, stripped:
# no symbols), so its user frames must read "[unknown] [busybox]", bcc's
# text for a known file without a symbol for the address.
. /vmtest/lib.sh
need_tracefs
q=/sys/block/nullb0/queue/scheduler
[ -w $q ] || fail "no $q"
freeze_calibrate
fn=$FREEZE_FN cur=$CUR other=$OTHER

start_tool barebpf trace -K -U -M 2 $fn
wait_tracing 60
for s in $other $cur $other $cur; do echo $s >$q || fail "cannot write $q"; done
wait_exit 30 "-M 2 and 4 freezes"
[ $RC = 0 ] || fail "exit $RC after -M 2"
sed -n '1,/^$/p' $W/out | sed 's/^/# | /'
n=$(grep -cE '^[0-9]+ +[0-9]+ +[^ ]+ +'$fn'$' $W/out)
[ "$n" = 2 ] || fail "$n events printed with -M 2"
# Per event: the user frames follow the kernel ones.
awk '
	/^[0-9]+ +[0-9]+ / { ev++; k = u = bad = 0; next }
	/^        [^ ]+\+0x[0-9a-f]+ \[kernel\]$/ { if (u) bad = 1; k++; next }
	/^        \[unknown\] \[busybox\]$/ { u++; next }
	/^$/ { if (k && u && !bad) good++; next }
	END { printf "%d %d\n", ev, good }' $W/out >$W/counts
read ev good <$W/counts
[ "$good" = 2 ] || fail "$good of $ev events with kernel then [unknown] [busybox] user frames"
no_probes_left "-M 2"
pass
