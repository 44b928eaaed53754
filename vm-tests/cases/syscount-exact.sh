# syscount -L -p PID of a dd copying 300 one-byte blocks, from
# raw_syscalls:sys_enter/sys_exit (4.9 on): exactly 300 reads, under this
# architecture's name of its number (armv7's read is 3, x86_64's 0), with
# their time; bcc's header; exits 0 on SIGINT with Detaching.
. /vmtest/lib.sh
need_tracefs
# the shell waits for the go in stat()s and wait4()s, never in a read;
# exec keeps the pid, and dd reads exactly count blocks
sh -c "while [ ! -e $W/go ]; do sleep 0.1; done; exec dd if=/dev/zero of=/dev/null bs=1 count=300" 2>/dev/null &
P=$!
start_tool barebpf syscount -L -p $P
wait_tracing 60
touch $W/go
wait $P
stop_tool INT 60
[ $RC = 0 ] || fail "exit $RC: $(tail -n 3 $W/err)"
grep -q '^SYSCALL                   COUNT        TIME (us)$' $W/out ||
	fail "not bcc's header"
r=$(awk '$1 == "read" { print $2 }' $W/out)
w=$(awk '$1 == "write" { print $2 }' $W/out)
[ "$r" = 300 ] || fail "read counted '$r' times, not 300"
[ "${w:-0}" -ge 300 ] || fail "write counted '$w' times, not 300 or more"
awk '$1 == "read" && $3 > 0 { ok = 1 } END { exit !ok }' $W/out ||
	fail "no time for read"
grep -q '^Detaching...$' $W/out || fail "no Detaching"
diag "read $r, write $w"
pass
