#!/bin/sh
# Show barebpf biolatency on a real disk: a loop device made for the demo,
# with a little direct I/O on it, then everything removed again.
set -e
BAREBPF=${1:-build/barebpf}
img=$(mktemp /tmp/barebpf-demo-XXXXXX)
truncate -s 64M "$img"
dev=$(losetup -f --show "$img")
cleanup() { losetup -d "$dev" 2>/dev/null || true; rm -f "$img"; }
trap cleanup EXIT INT TERM
name=${dev#/dev/}
echo "demo: $dev ($img); running: $BAREBPF biolatency -D -d $name --duration 4"
"$BAREBPF" biolatency -D -d "$name" --duration 4 &
pid=$!
sleep 1
dd if="$dev" of=/dev/null bs=4k count=2000 iflag=direct 2>/dev/null
dd if=/dev/zero of="$dev" bs=64k count=200 oflag=direct 2>/dev/null
wait $pid
