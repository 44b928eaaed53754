# barebpf tcpretrans -c: connections whose packets go nowhere (SYNs to
# 10.99.0.1, routed to lo, which does not forward them; IPv6 likewise to
# 2001:db8:2::1 where the kernel has IPv6) retransmit their SYN; the
# counts per flow add up to the kernel's own RetransSegs (/proc/net/snmp)
# over the same time, and the text lists them as R> 10.99.0.1:9 SYN_SENT.
# From tcp:tcp_retransmit_skb (4.15+: -c needs nothing else; the lines
# read the state from struct sock where the event has none, before 5.x)
# or a kprobe on tcp_retransmit_skb with struct sock's offsets (without BTF
# or the discovery it refuses, and the case SKIPs saying so, or passes
# without the lines where -c could count);
# where the kernel has both and BTF, the kprobe again (BAREBPF_TCP).
. /vmtest/lib.sh
need_tracefs
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null || fail "cannot bring lo up"
ip route add 10.99.0.0/24 dev lo 2>/dev/null || fail "cannot route 10.99.0.0/24 to lo"
V6=
if [ -e /proc/net/if_inet6 ] && ip -6 addr add 2001:db8:1::1/128 dev lo 2>/dev/null &&
	ip -6 route add 2001:db8:2::/64 dev lo 2>/dev/null; then V6=1; fi
segs() { awk '/^Tcp:/ { if (!h) { for (i = 1; i <= NF; i++) if ($i == "RetransSegs") c = i; h = 1 } else print $c }' /proc/net/snmp; }
# started: 0 once the tool says it is tracing, 1 if it exited before (RC)
started() {
	local i=0
	while [ $i -lt 600 ]; do
		grep -q Tracing $W/out $W/err 2>/dev/null && return 0
		tool_exited && { wait_exit 5 "its exit"; return 1; }
		sleep 0.1; i=$((i + 1))
	done
	fail "no 'Tracing' line after 60 s"
}
start_tool barebpf tcpretrans -c -v
if ! started; then
	grep -q "field sock.__sk_common.* cannot discover it" $W/err &&
		skip "no BTF and no discovery of struct sock's fields yet: $(head -n 1 $W/err)"
	fail "tcpretrans exited $RC before tracing"
fi
# count [ENV]: SYNs to nowhere for 4 s; the counts against RetransSegs
count() {
	R0=$(segs)
	nc 10.99.0.1 9 </dev/null >/dev/null 2>&1 &
	C4=$!
	C6=
	[ -n "$V6" ] && { nc 2001:db8:2::1 9 </dev/null >/dev/null 2>&1 & C6=$!; }
	sleep 4
	kill $C4 $C6 2>/dev/null
	wait $C4 $C6 2>/dev/null
	sleep 0.3
	R1=$(segs)
	stop_tool INT
	[ $RC = 0 ] || fail "tcpretrans -c $1: exit $RC after SIGINT"
	grep -E 'tcp_retransmit_skb|skc_state|BAREBPF_TCP' $W/err | sed 's/^/# /'
	grep -qE '^LADDR:LPORT +RADDR:RPORT +RETRANSMITS$' $W/out || fail "no bcc header line"
	n4=$(awk '$3 == "[10.99.0.1]#9" { print $4 }' $W/out)
	[ -n "$n4" ] && [ "$n4" -ge 1 ] || fail "$1: no retransmits to [10.99.0.1]#9"
	sum=$(awk '$2 == "<->" { s += $4 } END { print s + 0 }' $W/out)
	[ $sum = $((R1 - R0)) ] || fail "$1: $sum retransmits counted, RetransSegs grew by $((R1 - R0))"
	diag "$1: $sum retransmits ($n4 to 10.99.0.1), RetransSegs +$((R1 - R0))"
}
count tracepoint
# the kprobe on tcp_retransmit_skb (before 4.15) where the kernel has both
if [ -e $T/kprobe_events ] && [ -d $T/events/tcp/tcp_retransmit_skb ] &&
	[ -r /sys/kernel/btf/vmlinux ]; then
	start_tool env BAREBPF_TCP=kprobes barebpf tcpretrans -c -v
	started || fail "tcpretrans with BAREBPF_TCP=kprobes exited $RC"
	count kprobe
fi
# the text: R> 10.99.0.1:9 SYN_SENT. Where the event has no state (before
# 5.x) it is read from struct sock: without BTF or the discovery, refused
start_tool barebpf tcpretrans -4
if ! started; then
	grep -q "field sock.__sk_common.* cannot discover it" $W/err ||
		fail "tcpretrans -4 exited $RC before tracing"
	diag "the lines need struct sock's state here: $(head -n 1 $W/err)"
	[ -z "$(our_probes)" ] || fail "probes left in kprobe_events"
	pass
fi
nc 10.99.0.1 9 </dev/null >/dev/null 2>&1 &
C4=$!
sleep 2.5
kill $C4 2>/dev/null; wait $C4 2>/dev/null
stop_tool INT
grep -qE '^TIME +PID +IP +LADDR:LPORT +T> +RADDR:RPORT +STATE$' $W/out || fail "no bcc header line"
grep -qE ' 4  .*:[0-9]+ +R> 10\.99\.0\.1:9 +SYN_SENT$' $W/out || fail "no 'R> 10.99.0.1:9 SYN_SENT' line"
[ -z "$(our_probes)" ] || fail "probes left in kprobe_events"
pass
