# Only debugfs mounted (tracefs reachable as /sys/kernel/debug/tracing):
# barebpf finds it and works.
. /vmtest/lib.sh
umount_tracing
mount -t debugfs debugfs /sys/kernel/debug || fail "cannot mount debugfs"
funclatency_finds_tracefs
pass
