# `barebpf trace blk_mq_start_request | head -n 2`, with tracefs unmounted
# so that barebpf mounts it: once head has its two lines (the Tracing line
# and the header, on stdout as bcc's tools print them) and leaves, the
# closed pipe stops barebpf, which removes its probe and unmounts tracefs,
# then dies of SIGPIPE (141, as any filter would). Through the kprobe PMU
# where the kernel has it, and through kprobe_events on every kernel
# (BAREBPF_KPROBES=tracefs).
. /vmtest/lib.sh
piped() { # piped LABEL [ENV...]
	local l="$1"; shift
	umount_tracing
	save_mounts
	: >$W/err; rm -f $W/rc
	( env "$@" barebpf trace blk_mq_start_request 2>$W/err; echo $? >$W/rc ) | head -n 2 >$W/out &
	P=$!
	i=0
	while ! grep -q Tracing $W/out $W/err; do
		[ $i -ge 600 ] && fail "$l: no Tracing line after 60 s"
		sleep 0.1; i=$((i + 1))
	done
	i=0
	while [ ! -e $W/rc ]; do
		[ $i -ge 30 ] && fail "$l: barebpf still running ${i}0 reads after head left"
		workload 10
		i=$((i + 1))
	done
	wait $P
	diag "$l: exit $(cat $W/rc), stdout: $(tr '\n' ';' <$W/out) stderr: $(tr '\n' ';' <$W/err)"
	[ "$(cat $W/rc)" = 141 ] || fail "$l: exit $(cat $W/rc), not 141 (SIGPIPE)"
	[ "$(wc -l <$W/out)" = 2 ] || fail "$l: head got $(wc -l <$W/out) lines"
	grep -qv Tracing $W/err && fail "$l: stderr: $(cat $W/err)"
	no_stray_mount "$l"
	need_tracefs
	no_probes_left "$l"
}
have_kprobe_pmu && piped "kprobe PMU"
piped "kprobe_events" BAREBPF_KPROBES=tracefs
pass
