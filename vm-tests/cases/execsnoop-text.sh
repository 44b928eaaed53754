# barebpf execsnoop -x (bcc's text columns, through the tool symlink): a
# script started after the Tracing line makes 20 execs of /bin/echo and
# one of a missing file: exactly 20 lines of echo with the script as
# PPID and their arguments, one with RET -2 (ENOENT) whose PPID is the
# script; "20 ... printed, 0 lost" at exit. The marker is spelled with
# quotes in the script, so that the script's own exec does not match.
# Each once, in any order: the rings are read one CPU after the other.
. /vmtest/lib.sh
need_tracefs
M=bbx$$m
# where a kernel lacks the syscall tracepoints, or they take no BPF program
# (before 4.14), kprobes without being asked
syscall_way execve
start_tool execsnoop -x -l $M
wait_tracing 60
sh -c "i=0; while [ \$i -lt 20 ]; do /bin/echo bbx$$\"m\"-\$i 'two words' >/dev/null; i=\$((i + 1)); done; /nonexistent/bbx$$\"m\" x 2>/dev/null; exit 0" &
SP=$!
wait $SP
sleep 0.5
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep -qE '^PCOMM +PID +PPID +RET ARGS$' $W/out || fail "no bcc header line"
grep -q "Tracing exec()s through $WAY" $W/out || fail "not through $WAY"
ok=$(awk -v sp=$SP -v m=$M '$1 == "echo" && $3 == sp && $4 == 0 && $5 == "/bin/echo" && $7 == "two" && $8 == "words" && NF == 8 { s[$6]++ } END { for (i = 0; i < 20; i++) if (s[m "-" i] == 1) n++; print n + 0 }' $W/out)
[ "$ok" = 20 ] || fail "$ok of the 20 execs of echo once each with PPID $SP and args, expected 20"
c=$(grep -c "$M" $W/out)
[ "$c" = 21 ] || fail "$c lines with the marker, expected 21"
bad=$(awk -v sp=$SP -v m=$M '$4 == -2 && $3 == sp && $5 == "/nonexistent/" m && $6 == "x"' $W/out | wc -l)
[ "$bad" = 1 ] || fail "$bad lines of the failed exec with RET -2, PPID $SP, expected 1"
grep -q "execsnoop: 21 execs printed, 0 lost" $W/err || fail "no '21 execs printed, 0 lost' on stderr"
pass
