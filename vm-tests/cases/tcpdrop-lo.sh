# barebpf tcpdrop: drops this case provokes over lo, a known number, each
# with its line (bcc's columns) and a kernel stack through a tcp_
# function. Through skb:kfree_skb (tcp_drop inlined or gone), 3 SYNs to
# a closed port: 3 lines "> 127.0.0.1:5591 - (SYN)", NO_SOCKET after it
# where the event has a reason (5.17+). Through the kprobe on tcp_drop
# (4.10 to 5.18 where it is a function), 3 connections to self (the only
# local port ip_local_port_range leaves is the one connected to): the
# SYN a socket in SYN_SENT receives from itself is a simultaneous open,
# which tcp_rcv_synsent_state_process drops (4.x) or sends a SYN-ACK
# that the socket, in SYN_RECV, drops with a challenge ACK (armv7 4.19):
# one or two lines "127.0.0.1:P > 127.0.0.1:P SYN_SENT (SYN)" or
# "SYN_RECV (SYN|ACK)" each ("()" where no BTF places struct sk_buff's
# fields). Without BTF (4.9; 4.14 and 4.15, where tcp_drop was inlined)
# the tracepoint reads the packet at struct sk_buff's fields discovered
# (skboff.c: -v says "discovered" for each of the 4). Where tcp_drop
# is no function, the kprobe's program runs on tcp_v4_do_rcv instead
# (BAREBPF_TCPDROP=kprobe:...), below. Nothing is left in kprobe_events.
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
	grep -q "field sock.__sk_common.* cannot discover it" $W/err &&
		skip "no BTF and no discovery of struct sock's fields yet: $(head -n 1 $W/err)"
	fail "tcpdrop exited $RC before tracing: $(grep -v '^[a-z_]*\.[a-z_.]* at offset' $W/err | head -n 3)"
fi
grep -E 'sk_buff|Tracing|drop reasons' $W/err $W/out | sed 's/^/# /'
if [ ! -e /sys/kernel/btf/vmlinux ] && grep -q 'through skb:kfree_skb' $W/out; then
	n=$(grep -cE '^sk_buff\.(head|network_header|transport_header|sk) at offset [0-9]+ \([248] bytes\): discovered' $W/err)
	[ "$n" = 4 ] || fail "no BTF: $n of struct sk_buff's 4 fields discovered, not 4"
fi
# blocks RE: how many lines match RE and have a tcp_ frame in the stack
# under them (up to the empty line)
blocks() {
	RE="$1" awk '$0 ~ ENVIRON["RE"] { inb = 1; seen = 0; next }
		inb && /^\t/ { if ($0 ~ /^\t[a-z_0-9.]*tcp_/) seen = 1; next }
		inb { if (seen) ok++; inb = 0 }
		END { print ok + 0 }' $W/out
}
if grep -q 'through skb:kfree_skb' $W/out; then
	RSN=' NO_SOCKET'; HDR=' REASON'
	grep -q 'through skb:kfree_skb in tcp functions' $W/out && { RSN=; HDR=; }
	i=0
	while [ $i -lt $N ]; do
		nc 127.0.0.1 5591 </dev/null >/dev/null 2>&1
		i=$((i + 1))
	done
	sleep 0.5
	stop_tool INT
	[ $RC = 0 ] || fail "tcpdrop: exit $RC after SIGINT"
	grep -qE "^TIME +PID +IP +SADDR:SPORT +> DADDR:DPORT +STATE \\(FLAGS\\)$HDR\$" $W/out || fail "no bcc header line"
	re="^[0-9:]{8} [0-9]+ +4  127\\.0\\.0\\.1:[0-9]+ +> 127\\.0\\.0\\.1:5591 +- \\(SYN\\)$RSN\$"
	n=$(grep -cE "$re" $W/out)
	[ "$n" = $N ] || fail "$n lines '- (SYN)$RSN' to 127.0.0.1:5591 for $N SYNs"
	k=$(blocks "$re")
	# 32-bit ARM 6.x: the kernel's stack taken in a tracepoint does not
	# unwind past the tracepoint's own function (one frame, then an
	# address past the kernel's text: the unwinder's, not tcpdrop's): each
	# line must still have its stack, and the case says so
	if [ "$k" = 0 ] && [ "$(uname -m)" = armv7l ] &&
		[ "$(grep -c "$(printf '^\t__traceiter_kfree_skb')" $W/out)" = $N ]; then
		diag "armv7: the tracepoint's stacks end at __traceiter_kfree_skb (the kernel's unwinder): not checked for a tcp_ frame"
		k=$N
	fi
	[ "$k" = $N ] || fail "$k of the $N lines have a stack through a tcp_ function"
	diag "skb:kfree_skb: $n drops '- (SYN)$RSN', each with its stack"
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
	fl='\((SYN|SYN\|ACK)\)'
	grep -q 'struct sk_buff not placed' $W/err && fl='\(\)'
	for p in 5592 5593 5594; do
		re="^[0-9:]{8} [0-9]+ +4  127\\.0\\.0\\.1:$p +> 127\\.0\\.0\\.1:$p +SYN_(SENT|RECV) $fl\$"
		n=$(grep -cE "$re" $W/out)
		[ "$n" -ge 1 ] && [ "$n" -le 2 ] || fail "$n drops of the connection to self on port $p in SYN_SENT or SYN_RECV, not 1 or 2"
		k=$(blocks "$re")
		[ "$k" = "$n" ] || fail "$k of the $n drops on port $p have a stack through a tcp_ function"
		diag "port $p: $(grep -E "$re" $W/out | awk '{ print $7, $8 }' | tr '\n' ' ')"
	done
	diag "kprobe tcp_drop: the 3 connections to self each dropped their SYN (SYN_SENT: a simultaneous open) or SYN-ACK (SYN_RECV: a challenge ACK), flags $fl"
fi
# The kprobe's program where tcp_drop was inlined: on tcp_v4_do_rcv,
# of the same arguments (sk, skb), which the SYN-ACK a client receives in
# SYN_SENT passes: one line "127.0.0.1:5595 > 127.0.0.1:P SYN_SENT
# (SYN|ACK)" ("()" without BTF: the socket's addresses) with its stack
if [ -e $T/kprobe_events ] && ! grep -q 'through a kprobe' $W/out; then
	start_tool env BAREBPF_TCPDROP=kprobe:tcp_v4_do_rcv barebpf tcpdrop -4 -v
	started || fail "tcpdrop on tcp_v4_do_rcv exited $RC before tracing"
	sleep 2 | nc -l -p 5595 >/dev/null 2>&1 &
	sleep 0.3
	echo x | nc 127.0.0.1 5595 >/dev/null 2>&1
	sleep 0.5
	stop_tool INT
	[ $RC = 0 ] || fail "tcpdrop on tcp_v4_do_rcv: exit $RC after SIGINT"
	grep -E 'sk_buff|sock\.__sk_common\.skc_state' $W/err | sed 's/^/# /'
	re='^[0-9:]{8} [0-9]+ +4  127\.0\.0\.1:5595 +> 127\.0\.0\.1:[0-9]+ +SYN_SENT \((SYN\|ACK)?\)$'
	n=$(grep -cE "$re" $W/out)
	[ "$n" = 1 ] || fail "$n SYN_SENT lines of the client of 127.0.0.1:5595 through the kprobe, not 1"
	[ "$(blocks "$re")" = 1 ] || fail "the kprobe's line has no stack through a tcp_ function"
	diag "the kprobe's program on tcp_v4_do_rcv: $(grep -E "$re" $W/out)"
fi
[ -z "$(our_probes)" ] || fail "probes left in kprobe_events"
pass
