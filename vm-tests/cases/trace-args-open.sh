# trace %s of a user pointer through a kernel function that is not a
# system call (do_sys_open, do_sys_openat2 from 5.6): the kernel's memory
# is tried first, then the user's (5.5+; before, one helper reads both).
# STRCMP keeps the opens of one file; a return probe with (int)retval < 0
# the failed ones, with their error.
. /vmtest/lib.sh
need_tracefs
fn=
for f in do_sys_openat2 do_sys_open; do
	awk -v f=$f '$1 == f { found = 1 } END { exit !found }' $T/available_filter_functions && { fn=$f; break; }
done
[ -n "$fn" ] || fail "neither do_sys_openat2 nor do_sys_open in available_filter_functions"
P=/tmp/trace-args-open-known
echo hello >$P
start_tool barebpf trace -n cat "p::$fn (STRCMP(\"$P\", arg2)) \"%s dfd=%d\", arg2, arg1" \
	"r::$fn ((int)retval < 0) \"%d\", retval"
wait_tracing 60
i=0; while [ $i -lt 5 ]; do cat $P >/dev/null; i=$((i + 1)); done
i=0; while [ $i -lt 3 ]; do cat /tmp/trace-args-open-missing 2>/dev/null; i=$((i + 1)); done
sleep 1
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
k=$(grep -cE "^[0-9]+ +[0-9]+ +cat +$fn +$P dfd=-100\$" $W/out)
e=$(grep -cE "^[0-9]+ +[0-9]+ +cat +$fn +-2\$" $W/out)
all=$(($(wc -l <$W/out) - 2)) # but the Tracing line and the header
diag "$fn: $k opens of $P (5), $e failures -2 (3), $all lines"
[ "$k" = 5 ] || fail "$k opens of $P printed for 5"
[ "$e" = 3 ] || fail "$e failed opens (-2) printed for 3"
[ "$all" = 8 ] || fail "$all lines for 8 events"
no_probes_left "SIGINT"
pass
