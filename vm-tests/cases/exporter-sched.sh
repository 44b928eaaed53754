# barebpf exporter --collectors runqlat,hardirqs,pagecache, scraped before
# and after known work: 50 sleeps of this shell's children add at least 50
# waits to barebpf_runqueue_latency_seconds_count (and its _sum grows);
# every handler of /proc/interrupts is a series of
# barebpf_hardirq_seconds_total from the first scrape, and the handler
# that fired most while 16 KiB went out on the serial console has more
# time; 4 MiB of nullb0 read after the caches are dropped add at least
# 16 to barebpf_pagecache_misses_total, and read again at least 16 to
# the accesses with few more misses (cachestat-reread's pattern). No
# probe is left.
. /vmtest/lib.sh
need_tracefs
ifconfig lo 127.0.0.1 up 2>/dev/null || ip link set lo up 2>/dev/null
URL=http://127.0.0.1:19437/metrics
val() { awk -v s="$1" '$1 == s { print $2 }' $2; }
irqs() { awk '$1 ~ /^[0-9]+:$/ && $0 !~ /,/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s[$NF] += $i } END { for (n in s) print n, s[n] }' /proc/interrupts; }
scrape() { sleep 1.5; wget -q -O $W/$1 $URL || fail "no answer from $URL"; }
start_tool barebpf exporter -i 1 --listen 127.0.0.1:19437 -c runqlat,hardirqs,pagecache
wait_tracing 120 Exporting
sync
echo 3 >/proc/sys/vm/drop_caches
exec 3</dev/nullb0
irqs >$W/i0
scrape m0
for r in runqlat hardirqs pagecache; do
	grep -q "^barebpf_collector_enabled{collector=\"$r\"} 1\$" $W/m0 || fail "$r off: $(grep collector_enabled $W/m0)"
done
for n in $(cut -d' ' -f1 $W/i0); do
	grep -q "^barebpf_hardirq_seconds_total{irq=\"$n\"} " $W/m0 || fail "no series for $n from the start"
done
i=0; while [ $i -lt 50 ]; do sleep 0.01; i=$((i + 1)); done
tty=$(sed -n 's/.*console=\([a-zA-Z0-9]*\).*/\1/p' /proc/cmdline)
i=0
while [ $i -lt 256 ]; do
	echo "# exporter-sched: serial load ............................................"
	i=$((i + 1))
done >/dev/${tty:-console}
dd if=/dev/nullb0 of=/dev/null bs=64k count=64 2>/dev/null || fail "dd on nullb0"
irqs >$W/i1
scrape m1
dd if=/dev/nullb0 of=/dev/null bs=64k count=64 2>/dev/null || fail "dd on nullb0"
scrape m2
exec 3<&-
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT: $(cat $W/err)"
c0=$(val barebpf_runqueue_latency_seconds_count $W/m0)
c1=$(val barebpf_runqueue_latency_seconds_count $W/m1)
s0=$(val barebpf_runqueue_latency_seconds_sum $W/m0)
s1=$(val barebpf_runqueue_latency_seconds_sum $W/m1)
diag "runqlat: count $c0 -> $c1, sum $s0 -> $s1"
[ $((c1 - c0)) -ge 50 ] || fail "runqlat: $((c1 - c0)) waits for 50 sleeps"
awk -v a="$s0" -v b="$s1" 'BEGIN { exit !(b > a) }' || fail "runqlat: sum $s0 -> $s1"
top=$(awk 'NR == FNR { a[$1] = $2; next } { d = $2 - a[$1]; if (d > m) { m = d; n = $1 } } END { print n, m }' $W/i0 $W/i1)
set -- $top
h0=$(val "barebpf_hardirq_seconds_total{irq=\"$1\"}" $W/m0)
h1=$(val "barebpf_hardirq_seconds_total{irq=\"$1\"}" $W/m1)
diag "hardirqs: $1 fired $2 times: $h0 -> $h1 s"
[ "${2:-0}" -ge 5 ] || fail "no interrupt fired 5 times during the serial load"
awk -v a="$h0" -v b="$h1" 'BEGIN { exit !(b > a) }' || fail "hardirqs: $1 fired $2 times, its time $h0 -> $h1"
grep -q '^barebpf_collector_enabled{collector="pagecache"} 1$' $W/m0 || fail "pagecache off: $(cat $W/err)"
a0=$(val barebpf_pagecache_accesses_total $W/m0); a1=$(val barebpf_pagecache_accesses_total $W/m1); a2=$(val barebpf_pagecache_accesses_total $W/m2)
m0=$(val barebpf_pagecache_misses_total $W/m0); m1=$(val barebpf_pagecache_misses_total $W/m1); m2=$(val barebpf_pagecache_misses_total $W/m2)
diag "pagecache: accesses $a0 -> $a1 -> $a2, misses $m0 -> $m1 -> $m2"
[ $((m1 - m0)) -ge 16 ] || fail "first read: $((m1 - m0)) misses"
[ $((a2 - a1)) -ge 16 ] || fail "second read: $((a2 - a1)) accesses"
[ $(((m2 - m1) * 10)) -le $((m1 - m0)) ] || fail "second read: $((m2 - m1)) misses, the first $((m1 - m0))"
no_probes_left "SIGINT"
pass
