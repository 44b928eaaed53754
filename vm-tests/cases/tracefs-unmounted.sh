# Neither tracefs nor debugfs mounted: barebpf mounts what it needs and works.
. /vmtest/lib.sh
umount_tracing
funclatency_finds_tracefs
pass
