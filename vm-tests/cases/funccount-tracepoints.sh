# vmtest-timeout: 300
# funccount -v -d 6 't:sched:*' while this shell starts 40 processes:
# sched_process_fork counts them all, and the tool exits by itself within
# the bound. From 4.17 the tracepoints are raw tracepoints (-v: "26 raw
# tracepoints"), which end without a grace period each; before, perf
# events ("0 raw tracepoints").
. /vmtest/lib.sh
need_tracefs
start_tool barebpf funccount -v -d 6 't:sched:*'
wait_tracing 120
for i in $(seq 40); do /bin/true; done
wait_exit 60 "-d 6"
[ $RC = 0 ] || fail "exit $RC: $(cat $W/err)"
grep -q '^Tracing [0-9]* functions for "t:sched:\*"' $W/out || fail "no Tracing line"
c=$(awk '$1 == "sched:sched_process_fork" { print $2 }' $W/out)
[ "${c:-0}" -ge 40 ] || fail "sched_process_fork counted '$c' of 40 forks or more"
tail -n 1 $W/out | grep -q '^Detaching...$' || fail "no Detaching... at the end"
raw=$(sed -n 's/.*kprobe_events, \([0-9]*\) raw tracepoints).*/\1/p' $W/err)
case "$(uname -r)" in
4.1[0-6].*|4.[0-9].*) [ "$raw" = 0 ] || fail "raw tracepoints '$raw' before 4.17" ;;
*) [ "${raw:-0}" -ge 10 ] || fail "'$raw' raw tracepoints on $(uname -r)" ;;
esac
diag "$raw raw tracepoints, sched_process_fork $c"
pass
