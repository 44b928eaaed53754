# funclatency on a function that does not exist: a clear error naming it,
# non-zero exit, nothing left in kprobe_events.
. /vmtest/lib.sh
need_tracefs
timeout -s KILL 60 barebpf funclatency no_such_function_xyz >$W/out 2>$W/err
rc=$?
[ $rc = 137 ] && fail "still running after 60 s"
[ $rc != 0 ] || fail "exit status 0"
grep -q no_such_function_xyz $W/out $W/err || fail "the message does not name no_such_function_xyz"
no_probes_left "the error"
diag "exit $rc: $(cat $W/err $W/out | head -n 3)"
pass
