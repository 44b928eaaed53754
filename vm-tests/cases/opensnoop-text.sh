# barebpf opensnoop -p (bcc's text columns, through the tool symlink): a
# shell started before the tool opens a known file 20 times on fd 3 once
# told to, then a missing path: exactly 20 lines with its PID, FD 3, ERR
# 0 and the path, and one with FD -1, ERR 2 (ENOENT); "21 opens printed,
# 0 lost" at exit.
. /vmtest/lib.sh
need_tracefs
F=$W/bbopen-$$
: >$F
rm -f $W/go
sh -c "while [ ! -f $W/go ]; do sleep 0.1; done; i=0; while [ \$i -lt 20 ]; do exec 3<$F; exec 3<&-; i=\$((i + 1)); done; true <$W/missing-bbopen-$$ 2>/dev/null; exit 0" &
SP=$!
syscall_way openat
start_tool opensnoop -p $SP
wait_tracing 60
touch $W/go
wait $SP
sleep 0.5
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep -qE '^PID +COMM +FD ERR PATH$' $W/out || fail "no bcc header line"
grep -q "Tracing open()s through $WAY" $W/out || fail "not through $WAY"
ok=$(awk -v sp=$SP -v f=$F '$1 == sp && $2 == "sh" && $3 == 3 && $4 == 0 && $5 == f && NF == 5' $W/out | wc -l)
[ "$ok" = 20 ] || fail "$ok lines of PID $SP sh FD 3 ERR 0 $F, expected 20"
bad=$(awk -v sp=$SP -v f=$W/missing-bbopen-$$ '$1 == sp && $3 == -1 && $4 == 2 && $5 == f' $W/out | wc -l)
[ "$bad" = 1 ] || fail "$bad lines of the missing path with FD -1 ERR 2, expected 1"
c=$(grep -c "bbopen-$$" $W/out)
[ "$c" = 21 ] || fail "$c lines with the marker, expected 21"
grep -q "opensnoop: [0-9]* opens printed, 0 lost" $W/err || fail "records lost: $(cat $W/err)"
pass
