# trace on a system call's own function: from 4.17 (x86_64) and 4.19
# (arm64) it takes the pt_regs of the call (__x64_sys_openat,
# __arm64_sys_openat) and arg1..arg6 are read from those; before, the
# arguments are its own (SyS_openat). Either way: the file name (user
# memory first), and dfd, exactly.
. /vmtest/lib.sh
need_tracefs
fn=
for f in __x64_sys_openat __arm64_sys_openat SyS_openat sys_openat; do
	awk -v f=$f '$1 == f { found = 1 } END { exit !found }' $T/available_filter_functions && { fn=$f; break; }
done
[ -n "$fn" ] || fail "no openat system call function in available_filter_functions"
P=/tmp/trace-args-syscall
echo hello >$P
start_tool barebpf trace -n cat "p::$fn (STRCMP(\"$P\", arg2) && (int)arg1 == -100) \"%s %d\", arg2, arg1"
wait_tracing 60
i=0; while [ $i -lt 4 ]; do cat $P >/dev/null; i=$((i + 1)); done
sleep 1
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
k=$(grep -cE "^[0-9]+ +[0-9]+ +cat +$fn +$P -100\$" $W/out)
all=$(($(wc -l <$W/out) - 2)) # but the Tracing line and the header
diag "$fn: $k of 4 opens, $all lines"
[ "$k" = 4 ] && [ "$all" = 4 ] || fail "$k opens of $P printed ($all lines) for 4"
no_probes_left "SIGINT"
pass
