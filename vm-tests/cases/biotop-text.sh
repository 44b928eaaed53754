# biotop -C -d nullb0 1 (text), SIGINT: N direct 4 KiB reads by dd are,
# over the intervals, N requests and N * 4 Kbytes in dd's R rows on
# nullb0, each row's AVGms at least the injected completion time; no row
# of anyone else's (nullb0 has no other I/O: env.sh); bcc's head line and
# columns, and -C clears no screen.
. /vmtest/lib.sh
need_tracefs
start_tool barebpf biotop -C -d nullb0 -r 100 1
wait_tracing 60
workload
sleep 1.5
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep -q '^Tracing... Output every 1 secs. Hit Ctrl-C to end$' $W/out || fail "no bcc Tracing line"
grep -qE '^[0-9:]{8} loadavg: ' $W/out || fail "no 'HH:MM:SS loadavg:' line"
grep -qE '^PID +COMM +D MAJ MIN DISK +I/O +Kbytes +AVGms$' $W/out || fail "no bcc header line"
grep -q "$(printf '\033')" $W/out && fail "-C, yet an escape sequence in the output"
awk '$6 == "nullb0"' $W/out >$W/rows
io=$(awk '$2 == "dd" && $3 == "R" { s += $7 } END { print s + 0 }' $W/rows)
kb=$(awk '$2 == "dd" && $3 == "R" { s += $8 } END { print s + 0 }' $W/rows)
other=$(awk '!($2 == "dd" && $3 == "R")' $W/rows | head -n 1)
lo=$(awk -v ns=$NSEC 'BEGIN { printf "%.2f", ns / 1e6 }')
fast=$(awk -v lo=$lo '$9 < lo' $W/rows | head -n 1)
diag "dd: $io requests, $kb Kbytes; AVGms $(awk '{ print $9 }' $W/rows | tr '\n' ' ')"
[ -z "$other" ] || fail "a row not of dd's reads: '$other'"
[ "$io" = $N ] || fail "$io requests in dd's rows for its $N reads"
[ "$kb" = $((N * 4)) ] || fail "$kb Kbytes in dd's rows for $((N * 4))"
[ -z "$fast" ] || fail "AVGms below the injected $lo ms: '$fast'"
pass
