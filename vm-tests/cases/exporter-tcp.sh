# barebpf exporter --collectors tcp over lo (busybox nc): the ports that
# listen at start (5581, 5582) are series at 0 from the first scrape;
# after 5582's listener is gone, 3 connections to it are refused: the 3
# resets the clients receive count under port="_other" (their ephemeral
# ports), and the 3 the kernel sends count under port 5582 where the
# probes see a reset without a socket: the kprobes on tcp_v4_send_reset
# (before 4.15, and 4.15-6.9 where kprobes and the fields are there:
# -v says "resets sent: kprobes"), the tracepoint from 6.10 (its saddr a
# sockaddr); else nowhere (tcp:tcp_send_reset takes a socket). Then a
# connection to 10.99.0.1 (routed to lo, which drops it) retransmits its
# SYN: at least 1 retransmit under _other. From the tracepoints (4.15+),
# else kprobes with struct sock's and struct sk_buff's offsets (BTF, else
# discovered); without either, the collector is left out and says so. No
# probe is left.
. /vmtest/lib.sh
need_tracefs
lo_up
URL=http://127.0.0.1:19438/metrics
val() { awk -v s="$1" '$1 == s { print $2 }' $2; }
scrape() { sleep 1.5; wget -q -O $W/$1 $URL || fail "no answer from $URL"; }
sleep 30 2>/dev/null | nc -l -p 5581 >/dev/null 2>&1 &
L1=$!
sleep 30 2>/dev/null | nc -l -p 5582 >/dev/null 2>&1 &
L2=$!
sleep 0.3
# runqlat too: alone, a collector left out leaves nothing to export
start_tool barebpf exporter -i 1 --listen 127.0.0.1:19438 -c runqlat,tcp -v
wait_tracing 120 Exporting
scrape m0
KP=
[ -e $T/events/tcp/tcp_receive_reset ] && [ "$BAREBPF_TCP" != kprobes ] || KP=1
if [ -n "$KP" ] && [ ! -e $T/kprobe_events ]; then
	grep -q '^barebpf_collector_enabled{collector="tcp"} 0$' $W/m0 || fail "tcp on without tracepoints"
	stop_tool INT
	grep -q "tcp:tcp_retransmit_skb" $W/err || fail "not said: $(cat $W/err)"
	kill $L1 $L2 2>/dev/null
	no_probes_left "SIGINT"
	skip "no tcp tracepoints (4.15+) nor kprobes: the collector is left out, and says so"
fi
diag "${KP:+kprobes: }$(grep -E 'offset|function|resets sent' $W/err | tr '\n' ';')"
grep -q '^barebpf_collector_enabled{collector="tcp"} 1$' $W/m0 || fail "tcp off: $(cat $W/err)"
for p in 5581 5582; do
	for s in "barebpf_tcp_retransmits_total{port=\"$p\"}" \
		 "barebpf_tcp_resets_total{port=\"$p\",dir=\"sent\"}" \
		 "barebpf_tcp_resets_total{port=\"$p\",dir=\"received\"}"; do
		[ "$(val "$s" $W/m0)" = 0 ] || fail "$s not 0 from the start: $(grep tcp_ $W/m0)"
	done
done
# (not `wait`: busybox waits for the whole pipeline, its sleep too)
kill $L2
i=0
while grep -q ':15CE 00000000:0000 0A' /proc/net/tcp && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
i=0
while [ $i -lt 3 ]; do nc 127.0.0.1 5582 </dev/null >/dev/null 2>&1; i=$((i + 1)); done
scrape m1
# the route only for this while (tcpretrans-count adds its own, and
# leaves it)
RT=
if ip route add 10.99.0.0/24 dev lo 2>/dev/null; then RT=1
else ip route show 10.99.0.0/24 | grep -q lo || fail "cannot route 10.99.0.0/24 to lo"; fi
nc 10.99.0.1 9 </dev/null >/dev/null 2>&1 &
C=$!
sleep 2.5
kill $C 2>/dev/null
[ -z "$RT" ] || ip route del 10.99.0.0/24 dev lo 2>/dev/null
scrape m2
stop_tool INT
kill $L1 2>/dev/null
[ $RC = 0 ] || fail "exit $RC after SIGINT: $(cat $W/err)"
OR='barebpf_tcp_resets_total{port="_other",dir="received"}'
PS='barebpf_tcp_resets_total{port="5582",dir="sent"}'
OS='barebpf_tcp_resets_total{port="_other",dir="sent"}'
r=$(( $(val "$OR" $W/m1) - $(val "$OR" $W/m0) ))
s=$(( $(val "$PS" $W/m1) - $(val "$PS" $W/m0) ))
o=$(( $(val "$OS" $W/m1) - $(val "$OS" $W/m0) ))
OT='barebpf_tcp_retransmits_total{port="_other"}'
t=$(( $(val "$OT" $W/m2) - $(val "$OT" $W/m1) ))
diag "3 refused: received under _other +$r, sent under 5582 +$s, sent under _other +$o; SYN to nowhere: retransmits under _other +$t"
[ $r = 3 ] || fail "received resets: +$r, not 3"
[ $t -ge 1 ] || fail "retransmits under _other: +$t after 2.5 s of a SYN to nowhere"
if [ -n "$KP" ] || grep -q '^resets sent: kprobes' $W/err ||
	grep -q 'field:__u8 saddr\[28\]' $T/events/tcp/tcp_send_reset/format; then
	[ $s = 3 ] || fail "sent resets of 5582: +$s, not 3"
else
	[ $s = 0 ] || fail "sent resets of 5582: +$s where the tracepoint takes a socket: $(grep 'resets sent' $W/err)"
fi
no_probes_left "SIGINT"
pass
