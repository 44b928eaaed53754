# qenter -D while N direct reads run on nullb0 (17 ms each) and nothing
# freezes it, for the kernels without a second null_blk (configfs, which
# qenter-idle needs): before 5.15 (no __bio_queue_enter) every bio enters
# through blk_queue_enter, so nullb0's histogram holds exactly N entries,
# none of them 262 ms or more; from 5.15 none takes the slow path.
. /vmtest/lib.sh
need_tracefs
start_tool barebpf qenter -D
wait_tracing 120
workload
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
diag "output: $(cat $W/out)"
awk '/^disk = / { d = $3; gsub(/'"'"'/, "", d); next } d == "nullb0"' $W/out >$W/nullb0
long=$(awk '$2 == "->" && $4 == ":" && $1 >= 262144 { s += $5 } END { print s + 0 }' $W/nullb0)
[ "$long" = 0 ] || fail "$long entries of 262 ms or more without a freeze"
s=$(hist_sum $W/nullb0)
if grep -q ' __bio_queue_enter$' /proc/kallsyms; then
	[ "$s" = 0 ] || fail "$s slow-path entries on nullb0 without a freeze"
else
	[ "$s" = $N ] || fail "nullb0 histogram holds $s entries for $N reads"
fi
no_probes_left "SIGINT"
pass
