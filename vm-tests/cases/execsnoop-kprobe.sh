# The fallback for kernels built without CONFIG_FTRACE_SYSCALLS, forced
# with BAREBPF_SYSCALLS=kprobes: execsnoop -x on kprobes on this kernel's
# execve function (sys_execve / SyS_execve on 4.15, __x64_sys_execve /
# __arm64_sys_execve later) and a kretprobe: exactly the 20 execs of a
# script with PPID and arguments, the failed one with RET -2; no probe
# left in kprobe_events afterwards.
. /vmtest/lib.sh
need_tracefs
M=bbk$$m
BAREBPF_SYSCALLS=kprobes start_tool barebpf execsnoop -x -l $M
wait_tracing 60
grep -q "Tracing exec()s through kprobes on [_a-zA-Z0-9]*\(sys\|SyS\)_execve" $W/out || fail "not through kprobes: $(head -n 1 $W/out)"
sh -c "i=0; while [ \$i -lt 20 ]; do /bin/echo bbk$$\"m\"-\$i 'two words' >/dev/null; i=\$((i + 1)); done; /nonexistent/bbk$$\"m\" x 2>/dev/null; exit 0" &
SP=$!
wait $SP
sleep 0.5
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
ok=$(awk -v sp=$SP -v m=$M '$1 == "echo" && $3 == sp && $4 == 0 && $5 == "/bin/echo" && $7 == "two" && $8 == "words" && NF == 8 { s[$6]++ } END { for (i = 0; i < 20; i++) if (s[m "-" i] == 1) n++; print n + 0 }' $W/out)
[ "$ok" = 20 ] || fail "$ok of the 20 execs of echo once each with PPID $SP and args, expected 20"
bad=$(awk -v sp=$SP -v m=$M '$4 == -2 && $3 == sp && $5 == "/nonexistent/" m && $6 == "x"' $W/out | wc -l)
[ "$bad" = 1 ] || fail "$bad lines of the failed exec with RET -2, PPID $SP, expected 1"
c=$(grep -c "$M" $W/out)
[ "$c" = 21 ] || fail "$c lines with the marker, expected 21"
grep -q "execsnoop: 21 execs printed, 0 lost" $W/err || fail "no '21 execs printed, 0 lost' on stderr"
[ -z "$(our_probes)" ] || fail "probes left: $(our_probes)"
pass
