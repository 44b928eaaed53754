# The fallback for kernels built without CONFIG_FTRACE_SYSCALLS, forced
# with BAREBPF_SYSCALLS=kprobes: opensnoop -j -e -d 8 on kprobes on this
# kernel's open functions (openat everywhere; open on x86_64, openat2 from
# 5.6) and a kretprobe: a shell's 20 opens of a known file for writing
# (O_WRONLY|O_CREAT|O_TRUNC, fd 3) and one of a missing path (-1, ENOENT),
# exactly, with their flags; it exits by itself; no probe left.
. /vmtest/lib.sh
need_tracefs
F=$W/bbopenk-$$
rm -f $W/go
sh -c "while [ ! -f $W/go ]; do sleep 0.1; done; i=0; while [ \$i -lt 20 ]; do exec 3>$F; exec 3>&-; i=\$((i + 1)); done; true <$W/missing-bbopenk-$$ 2>/dev/null; exit 0" &
SP=$!
BAREBPF_SYSCALLS=kprobes start_tool barebpf opensnoop -j -e -p $SP -d 8
wait_tracing 60
grep -q "Tracing open()s through kprobes on [_a-zA-Z0-9]*\(sys\|SyS\)_openat" $W/err || fail "not through kprobes: $(head -n 1 $W/err)"
touch $W/go
wait $SP
wait_exit 30 "-d 8"
[ $RC = 0 ] || fail "exit $RC"
# O_WRONLY|O_CREAT|O_TRUNC: 01 | 0100 | 01000 on x86_64 and arm64
ok=$(grep -c "\"pid\":$SP,.*\"comm\":\"sh\",\"fd\":3,\"err\":0,\"flags\":577,\"path\":\"$F\"}" $W/out)
[ "$ok" = 20 ] || fail "$ok lines of fd 3, flags 577 (01101), $F, expected 20"
bad=$(grep -c "\"fd\":-1,\"err\":2,\"flags\":0,\"path\":\"$W/missing-bbopenk-$$\"}" $W/out)
[ "$bad" = 1 ] || fail "$bad lines of the missing path, expected 1"
grep -q "opensnoop: 21 opens printed, 0 lost" $W/err || fail "no '21 opens printed, 0 lost': $(cat $W/err)"
[ -z "$(our_probes)" ] || fail "probes left: $(our_probes)"
pass
