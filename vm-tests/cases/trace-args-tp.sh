# trace's language on tracepoints (the fields' offsets and types from this
# kernel's format files): block_rq_issue's bytes, its rwbs (a char array
# read in place) and comm (the issuer's, dd or a kworker: the same as
# trace's COMM column) for exactly the N direct reads of nullb0; and
# sched_process_exec's file name (a __data_loc string) for each exec.
. /vmtest/lib.sh
need_tracefs
start_tool barebpf trace 't:block:block_rq_issue (args->bytes == 4096) "%u %s %s", args->bytes, args->rwbs, args->comm' \
	't:sched:sched_process_exec (STRCMP("/bin/true", args->filename)) "%s", args->filename'
wait_tracing 60
workload
i=0; while [ $i -lt 3 ]; do /bin/true; i=$((i + 1)); done
sleep 1
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
r=$(awk '$4 == "block_rq_issue" && $5 == 4096 && $6 ~ /^R[A-Z]*$/ && $7 == $3 && NF == 7' $W/out | wc -l)
x=$(grep -cE '^[0-9]+ +[0-9]+ +true +sched_process_exec +/bin/true$' $W/out)
diag "$r block_rq_issue lines '4096 R COMM' for $N reads, $x execs of /bin/true (3)"
[ "$r" = $N ] || fail "$r reads printed for $N"
[ "$x" = 3 ] || fail "$x execs printed for 3"
pass
