# SIGQUIT, which would kill barebpf (and dump core), stops it like SIGINT:
# its probes removed, the tracefs it mounted unmounted, exit 0.
. /vmtest/lib.sh
umount_tracing
save_mounts
start_tool env BAREBPF_KPROBES=tracefs barebpf funclatency blk_mq_start_request
wait_tracing 60
find_tracefs || fail "barebpf did not mount tracefs"
our_probes >/dev/null || fail "no barebpf probe in $T/kprobe_events while tracing"
stop_tool QUIT
[ $RC = 0 ] || fail "exit $RC after SIGQUIT"
no_stray_mount "SIGQUIT"
need_tracefs
no_probes_left "SIGQUIT"
pass
