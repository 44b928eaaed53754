# The offsets barebpf discovers on a kernel without BTF, against that
# kernel's own answer: vm-tests/offsets/LABEL.txt, pahole on DWARF of the
# same source and config (made by vm-tests/offsets/mkoffsets.sh). With
# BAREBPF_FIELDS=discover (no cache), each tool that discovers says with
# -v where each field is: tcpconnect (struct sock's), tcplife
# (tcp_sock.bytes_acked/bytes_received), exitsnoop (task_struct's),
# ext4slower (kiocb, file, dentry), runqlen (rq.nr_running), tcpdrop
# (sk_buff's head, network_header, transport_header, sk). Every field
# named must be in the fixture at the same offset and size, and every
# field of the fixture must have been discovered (file.f_op only where
# ext4 reads through generic_file_read_iter: 4.9; rq.nr_running not where
# runqlen refuses for the reason runqlen-spin accepts: Debian's armv7
# 5.10). Kernels with no fixture skip (where there is BTF, the cases
# sockoff-btf, tcplife-bytes, exitsnoop-codes, fsslower-ext4 and
# runqlen-spin check against it). A fixture of a Debian kernel (from its
# -dbg package) names the release it is of ("# release:"): on another
# (the mirror has moved on) the case skips, naming the command that makes
# it again.
. /vmtest/lib.sh
F=/vmtest/offsets/$LABEL.txt
[ -r $F ] || skip "no pahole fixture for $LABEL (vm-tests/offsets/)"
rel=$(sed -n 's/^# release: \([^ ]*\).*/\1/p' $F)
[ -z "$rel" ] || [ "$rel" = "$R" ] ||
	skip "the fixture is of $rel, this kernel is $R: make it again (vm-tests/offsets/mkoffsets.sh $LABEL)"
grep -q "^# kernel: $R " $F || fail "$F is not of this kernel ($R): $(grep '^# kernel' $F)"
need_tracefs
lo_up
slow_ext4 1
export BAREBPF_FIELDS=discover
# run NAME ARGS...: the tool's -v lines "PATH at offset N (S bytes)" (or
# without the size: fsslower's) appended to $W/disc as "PATH N S"; a
# refusal that refused NAME accepts adds NAME to $REFUSED instead
REFUSED= TIMES=
run() {
	local n=$1; shift
	local rc=0 t0
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$@" -v >$W/$n.out 2>$W/$n.err || rc=$?
	TIMES="$TIMES $n $(awk -v t0=$t0 '{ printf "%.1f", $1 - t0 }' /proc/uptime) s;"
	if [ $rc = 1 ] && refused $n; then
		diag "$n refused: $(tr '\n' ' ' <$W/$n.err)"
		REFUSED="$REFUSED $n"
		return 0
	fi
	[ $rc = 0 ] || { tail -n 3 $W/$n.err; fail "$n: exit $rc ($*)"; }
	grep -q ': discovered' $W/$n.err || { cat $W/$n.err; fail "$n: nothing discovered"; }
	sed -n 's/^\([a-z_]*\.[a-z_.0-9]*\) at offset \([0-9]*\) (\([0-9]*\) bytes): .*/\1 \2 \3/p; s/^\([a-z_]*\.[a-z_.0-9]*\) at offset \([0-9]*\): .*/\1 \2 -/p' $W/$n.err >>$W/disc
}
# refused NAME: NAME's refusal ($W/NAME.err) is the one the tool's own
# case accepts: runqlen's where there is no BTF, no runqueues in
# kallsyms and no sched_update_nr_running_tp BPF may attach to (Debian's
# armv7 5.10; runqlen-spin)
refused() {
	case $1 in
	runqlen) grep -q "cannot find the CPUs' run queues" $W/runqlen.err &&
		grep -q "sched_update_nr_running_tp.*No such file" $W/runqlen.err &&
		[ ! -r /sys/kernel/btf/vmlinux ] && ! grep -qE ' runqueues$' /proc/kallsyms ;;
	*) false ;;
	esac
}
: >$W/disc
run tcpconnect barebpf tcpconnect --duration 0.1
run tcplife barebpf tcplife --duration 0.1
run exitsnoop barebpf exitsnoop --duration 0.1
run ext4slower barebpf ext4slower -d 0.1
run runqlen barebpf runqlen --duration 0.1
run tcpdrop barebpf tcpdrop --duration 0.1
diag "discovered: $(sort -u $W/disc | tr '\n' ';')"
diag "times:$TIMES"
# each field once (two tools that place one must agree)
sort -u $W/disc | awk '{ print $1 }' | uniq -d >$W/twice
[ -s $W/twice ] && fail "placed differently by two tools: $(grep -F -f $W/twice $W/disc | sort -u | tr '\n' ';')"
bad=
while read -r p off size; do
	want=$(awk -v p=$p '$1 == p { print $2, $3 }' $F)
	if [ -z "$want" ]; then
		bad="$bad $p: discovered at $off, not in the fixture;"
	elif [ "$size" = - ] && [ "${want% *}" != $off ]; then
		bad="$bad $p: discovered $off, pahole ${want% *};"
	elif [ "$size" != - ] && [ "$want" != "$off $size" ]; then
		bad="$bad $p: discovered $off ($size bytes), pahole ${want% *} (${want#* } bytes);"
	fi
done <<EOT
$(sort -u $W/disc)
EOT
# file.f_op: read only where ext4 reads through generic_file_read_iter
# (4.9; 4.10 and later have ext4_file_read_iter)
OPT=
grep -qE ' ext4_file_read_iter($|[[:space:]])' /proc/kallsyms && OPT=file.f_op
# the fields of a tool that refused
case " $REFUSED " in *" runqlen "*) OPT="$OPT rq.nr_running" ;; esac
for p in $(grep -v '^#' $F | awk '{ print $1 }'); do
	case " $OPT " in *" $p "*) continue ;; esac
	grep -q "^$p " $W/disc || bad="$bad $p: in the fixture, not discovered;"
done
[ -z "$bad" ] || fail "offsets against pahole ($F):$bad"
no_probes_left "the discoveries"
diag "$(sort -u $W/disc | wc -l) fields as pahole says${REFUSED:+; refused, as they should:$REFUSED}"
pass
