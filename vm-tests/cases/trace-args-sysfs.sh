# trace %s of a kernel pointer: sysfs_kf_write(of, buf, count, pos) gets
# the text written to a sysfs file in a kernel buffer. Writing "4321" to
# nullb0's read_ahead_kb N times gives N lines "4321 4" (the text, the
# byte count), and STRCMP leaves out the write that restores it.
. /vmtest/lib.sh
need_tracefs
ra=/sys/block/nullb0/queue/read_ahead_kb
[ -w $ra ] || fail "no $ra"
old=$(cat $ra)
[ "$old" != 4321 ] || old=128
start_tool barebpf trace -n sh 'p::sysfs_kf_write (STRCMP("4321", arg2)) "%s %d", arg2, arg3'
wait_tracing 60
i=0; while [ $i -lt 6 ]; do printf 4321 >$ra || fail "cannot write $ra"; i=$((i + 1)); done
printf $old >$ra
sleep 1
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
k=$(grep -cE '^[0-9]+ +[0-9]+ +sh +sysfs_kf_write +4321 4$' $W/out)
all=$(($(wc -l <$W/out) - 2)) # but the Tracing line and the header
diag "$k of 6 writes, $all lines"
[ "$k" = 6 ] && [ "$all" = 6 ] || fail "$k writes of 4321 printed ($all lines) for 6"
no_probes_left "SIGINT"
pass
