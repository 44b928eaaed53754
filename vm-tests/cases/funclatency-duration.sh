# funclatency --duration 5 -j: exits by itself after ~5 s, exactly N calls.
. /vmtest/lib.sh
need_tracefs
start_tool barebpf funclatency --duration 5 -j blk_mq_start_request
wait_tracing 60
t0=$(date +%s)
workload
wait_exit 60 "--duration 5"
t1=$(date +%s)
[ $RC = 0 ] || fail "exit $RC"
[ $((t1 - t0)) -ge 3 ] || fail "exited $((t1 - t0)) s after attaching, --duration was 5"
c=$(json_count $W/out)
[ -n "$c" ] || fail "no top-level \"count\" in the JSON"
[ "$c" = $N ] || fail "count $c for $N reads"
pass
