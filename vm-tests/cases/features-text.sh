# barebpf features (text): prints the kernel version code in hex.
. /vmtest/lib.sh
need_tracefs
barebpf features >$W/out 2>$W/err || fail "barebpf features exited $?"
hex=$(printf 0x%06x $(kernel_version_code))
grep -qi "kernel version code: $hex" $W/out || fail "no 'kernel version code: $hex' line"
pass
