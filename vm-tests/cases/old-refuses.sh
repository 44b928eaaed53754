# Where helpers take no map value as memory (before 4.11: 4.9), the tools
# built on that say so in one line and exit 1, leaving no probe and no
# mount: trace on a kprobe and on a tracepoint (its record is built in a
# map value), breakdown (its frame is one). Also: kprobes in kprobes/ that
# an "r<maxactive>:" definition made by mistake before 4.12.
. /vmtest/lib.sh
need_tracefs
[ $(kernel_version_code) -lt $((4 * 65536 + 11 * 256)) ] ||
	skip "helpers take map values as memory here (4.11+): trace and breakdown run"
LACKS="this kernel's helpers take no map value as memory, only the stack (map values came in 4.11)"
save_mounts
for cmd in "trace blk_mq_start_request" "trace t:block:block_rq_issue" "breakdown vfs_read __vfs_read"; do
	rc=0
	barebpf $cmd >$W/out 2>$W/err || rc=$?
	diag "$cmd: exit $rc: $(cat $W/err)"
	[ $rc = 1 ] || fail "barebpf $cmd: exit $rc, not 1"
	[ "$(wc -l <$W/err)" = 1 ] || fail "barebpf $cmd: $(wc -l <$W/err) lines on stderr, not one"
	grep -qF "$LACKS" $W/err || fail "barebpf $cmd does not say what this kernel lacks"
	[ -s $W/out ] && fail "barebpf $cmd printed on stdout: $(cat $W/out)"
	no_probes_left "barebpf $cmd"
	grep -q '^[pr]:kprobes/[pr]_' $T/kprobe_events && fail "default-named probes left: $(cat $T/kprobe_events)"
	no_stray_mount "barebpf $cmd"
done
pass
