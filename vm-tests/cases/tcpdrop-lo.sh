# barebpf tcpdrop: drops this case provokes over lo, a known number, each
# with its line (bcc's columns) and a kernel stack through a tcp_
# function. Through skb:kfree_skb (5.19+: no tcp_drop), 3 SYNs to a
# closed port: 3 lines "> 127.0.0.1:5591 - (SYN) NO_SOCKET". Through the
# kprobe on tcp_drop (4.10 to 5.18), 3 connections to self (the only
# local port ip_local_port_range leaves is the one connected to): the SYN
# a socket in SYN_SENT receives from itself is a simultaneous open, and
# tcp_rcv_synsent_state_process drops it: one line "127.0.0.1:P >
# 127.0.0.1:P SYN_SENT (SYN)" each (the flags "()" where no BTF places
# struct sk_buff's fields). A kernel with neither (4.9) is refused,
# naming both; nothing is left in kprobe_events.
. /vmtest/lib.sh
need_tracefs
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null || fail "cannot bring lo up"
N=3
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
start_tool barebpf tcpdrop -v
if ! started; then
	[ -z "$(our_probes)" ] || fail "probes left in kprobe_events"
	if [ $RC = 1 ] && grep -q "neither the function tcp_drop .* nor the tracepoint skb:kfree_skb with a drop reason" $W/err; then
		diag "$(grep neither $W/err)"
		pass
	fi
	grep -q "field sock.__sk_common.* cannot discover it" $W/err &&
		skip "no BTF and no discovery of struct sock's fields yet: $(head -n 1 $W/err)"
	fail "tcpdrop exited $RC before tracing"
fi
grep -E 'sk_buff|Tracing|drop reasons' $W/err $W/out | sed 's/^/# /'
# blocks RE: how many lines match RE and have a tcp_ frame in the stack
# under them (up to the empty line)
blocks() {
	awk -v re="$1" '$0 ~ re { inb = 1; seen = 0; next }
		inb && /^\t/ { if ($0 ~ /^\t[a-z_0-9.]*tcp_/) seen = 1; next }
		inb { if (seen) ok++; inb = 0 }
		END { print ok + 0 }' $W/out
}
if grep -q 'through skb:kfree_skb' $W/out; then
	i=0
	while [ $i -lt $N ]; do
		nc 127.0.0.1 5591 </dev/null >/dev/null 2>&1
		i=$((i + 1))
	done
	sleep 0.5
	stop_tool INT
	[ $RC = 0 ] || fail "tcpdrop: exit $RC after SIGINT"
	grep -qE '^TIME +PID +IP +SADDR:SPORT +> DADDR:DPORT +STATE \(FLAGS\) REASON$' $W/out || fail "no bcc header line"
	re='^[0-9:]{8} [0-9]+ +4  127\.0\.0\.1:[0-9]+ +> 127\.0\.0\.1:5591 +- \(SYN\) NO_SOCKET$'
	n=$(grep -cE "$re" $W/out)
	[ "$n" = $N ] || fail "$n NO_SOCKET lines to 127.0.0.1:5591 for $N SYNs"
	k=$(blocks "$re")
	[ "$k" = $N ] || fail "$k of the $N lines have a stack through a tcp_ function"
	diag "skb:kfree_skb: $n NO_SOCKET drops, each with its stack"
else
	RANGE=$(cat /proc/sys/net/ipv4/ip_local_port_range)
	for p in 5592 5593 5594; do
		echo "$p $p" >/proc/sys/net/ipv4/ip_local_port_range ||
			fail "cannot set ip_local_port_range"
		nc 127.0.0.1 $p </dev/null >/dev/null 2>&1 &
		C=$!
		sleep 0.5
		kill $C 2>/dev/null; wait $C 2>/dev/null
	done
	echo "$RANGE" >/proc/sys/net/ipv4/ip_local_port_range
	sleep 0.3
	stop_tool INT
	[ $RC = 0 ] || fail "tcpdrop: exit $RC after SIGINT"
	grep -qE '^TIME +PID +IP +SADDR:SPORT +> DADDR:DPORT +STATE \(FLAGS\)$' $W/out || fail "no bcc header line"
	fl='\(SYN\)'
	grep -q 'struct sk_buff not placed' $W/err && fl='\(\)'
	for p in 5592 5593 5594; do
		re="^[0-9:]{8} [0-9]+ +4  127\\.0\\.0\\.1:$p +> 127\\.0\\.0\\.1:$p +SYN_SENT $fl\$"
		n=$(grep -cE "$re" $W/out)
		[ "$n" = 1 ] || fail "$n SYN_SENT drops of the connection to self on port $p, not 1"
		k=$(blocks "$re")
		[ "$k" = 1 ] || fail "the drop on port $p has no stack through a tcp_ function"
	done
	diag "kprobe tcp_drop: the 3 connections to self dropped their SYN, flags $fl"
fi
[ -z "$(our_probes)" ] || fail "probes left in kprobe_events"
pass
