# qenter -D while N direct reads run on nullb0 and nothing freezes it: no
# entry waits a millisecond. Before 5.15 (no __bio_queue_enter) every bio
# enters through blk_queue_enter: nullb0 then holds exactly N entries.
. /vmtest/lib.sh
need_tracefs
start_tool barebpf qenter -D
wait_tracing 120
workload
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
diag "output: $(cat $W/out)"
awk '/^disk = / { d = $3; gsub(/'"'"'/, "", d); next } d == "nullb0"' $W/out >$W/nullb0
ms=$(awk '$2 == "->" && $4 == ":" && $1 >= 1024 { s += $5 } END { print s + 0 }' $W/out)
[ "$ms" = 0 ] || fail "$ms entries of 1 ms or more without a freeze"
s=$(hist_sum $W/nullb0)
if grep -q ' __bio_queue_enter$' /proc/kallsyms; then
	[ "$s" = 0 ] || fail "$s slow-path entries on nullb0 without a freeze"
else
	[ "$s" = $N ] || fail "nullb0 histogram holds $s entries for $N reads"
fi
pass
