# Where helpers take no map value as memory (before 4.11: 4.9), trace runs
# (its record on the stack, as breakdown's, which runs there too:
# breakdown-freeze), but refuses a probe whose strings do not fit that
# record, in one line, leaving no probe and no mount.
# Also: kprobes in kprobes/ that an "r<maxactive>:" definition made by
# mistake before 4.12.
. /vmtest/lib.sh
need_tracefs
[ $(kernel_version_code) -lt $((4 * 65536 + 11 * 256)) ] ||
	skip "helpers take map values as memory here (4.11+): no variant of trace's record"
STACK="before 4.11 a record is built on the stack, and its strings share 192 bytes, not 200"
save_mounts
# one line, exit 1, nothing on stdout, nothing left behind
refused() { # what, the text the message must hold, then the command
	what=$1 want=$2
	shift 2
	rc=0
	barebpf "$@" >$W/out 2>$W/err || rc=$?
	diag "$*: exit $rc: $(cat $W/err)"
	[ $rc = 1 ] || fail "barebpf $*: exit $rc, not 1"
	[ "$(wc -l <$W/err)" = 1 ] || fail "barebpf $*: $(wc -l <$W/err) lines on stderr, not one"
	grep -qF "$want" $W/err || fail "barebpf $* does not say $what"
	[ -s $W/out ] && fail "barebpf $* printed on stdout: $(cat $W/out)"
	no_probes_left "barebpf $*"
	grep -q '^[pr]:kprobes/[pr]_' $T/kprobe_events && fail "default-named probes left: $(cat $T/kprobe_events)"
	no_stray_mount "barebpf $*"
}
refused "why its strings do not fit" "$STACK" trace -Z 200 'p::vfs_read "%s", arg2'
pass
