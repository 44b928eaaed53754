# vfsstat 1 3 (tool symlink): bcc's header and 3 lines, exits by itself,
# opens counted (the case opens a file 50 times within the run), nothing
# left behind.
. /vmtest/lib.sh
need_tracefs
start_tool vfsstat 1 3
wait_tracing 60 READ/s
i=0
while [ $i -lt 50 ]; do : </dev/null; i=$((i + 1)); done
wait_exit 60 "count 3"
[ $RC = 0 ] || fail "exit $RC"
head -n 1 $W/out | grep -q '^TIME         READ/s  WRITE/s  FSYNC/s   OPEN/s CREATE/s$' ||
	fail "not bcc's header: $(head -n 1 $W/out)"
n=$(grep -cE '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]: +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$' $W/out)
[ "$n" = 3 ] || fail "$n data lines for a count of 3"
o=$(awk 'NR > 1 { s += $5 } END { print s + 0 }' $W/out)
[ $o -ge 50 ] || fail "$o opens counted for 50"
grep -q 'cannot attach' $W/err && diag "$(cat $W/err)"
no_probes_left "exit"
pass
