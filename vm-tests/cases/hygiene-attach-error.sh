# An error in the middle of attaching: trace's first probe is in, its second
# (a function that does not exist) fails. A message naming it, a non-zero
# exit, the first probe removed and the tracefs barebpf mounted unmounted.
# Through the kprobe PMU where there is one, and through kprobe_events.
. /vmtest/lib.sh
bad() { # bad LABEL [ENV...]
	local l="$1"; shift
	umount_tracing
	save_mounts
	timeout -s KILL 60 env "$@" barebpf trace -v blk_mq_start_request no_such_function_xyz >$W/out 2>$W/err
	rc=$?
	diag "$l: exit $rc: $(tr '\n' ';' <$W/err)"
	[ $rc = 137 ] && fail "$l: still running after 60 s"
	[ $rc != 0 ] || fail "$l: exit status 0"
	grep -q "no_such_function_xyz" $W/err || fail "$l: the message does not name no_such_function_xyz"
	no_stray_mount "$l"
	need_tracefs
	no_probes_left "$l"
}
have_kprobe_pmu && bad "kprobe PMU"
bad "kprobe_events" BAREBPF_KPROBES=tracefs
pass
