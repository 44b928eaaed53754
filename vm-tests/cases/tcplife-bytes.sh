# barebpf tcplife -j: the bytes of two TCP sessions over lo (busybox nc):
# the client sends 300000 bytes (its TX, the server's RX), then a server
# sends 500000 (its TX, the client's RX). The kernel's counts include the
# SYN's and FIN's sequence numbers (0 to 2 more), never a KB more; text:
# TX_KB/RX_KB 292 and 488. IPv6 (::1) too where the kernel has it.
# tcp_sock.bytes_acked/bytes_received come from the BTF, else are
# discovered (a loopback socket of known byte counts, snapshotted at its
# close): where BTF has them, the discovery forced must find the same.
# Before 4.16 struct sock's fields too: without BTF or their discovery,
# tcplife refuses naming one, and the case SKIPs saying so.
# The kprobe on tcp_set_state again where the kernel has the tracepoint
# too (BAREBPF_TCP=kprobes).
. /vmtest/lib.sh
need_tracefs
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null || fail "cannot bring lo up"
have6() { [ -e /proc/net/if_inet6 ] && grep -q '^0*1 ' /proc/net/if_inet6; }
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
start_tool barebpf tcplife -j -v
if ! started; then
	grep -q "field tcp_sock.bytes_acked: .*cannot discover it" $W/err &&
		skip "no BTF here: $(head -n 1 $W/err)"
	grep -q "field sock.__sk_common.* cannot discover it" $W/err &&
		skip "no BTF and no discovery of struct sock's fields yet: $(head -n 1 $W/err)"
	fail "tcplife exited $RC before tracing"
fi
sessions() {
	# a listener's stdin that stays open: at its end nc closes
	sleep 4 | nc -l -p $2 >$W/a.srv 2>/dev/null &
	sleep 0.3
	dd if=/dev/zero bs=1000 count=300 2>/dev/null | nc $1 $2 >/dev/null 2>&1
	sleep 0.5
	dd if=/dev/zero bs=1000 count=500 2>/dev/null | nc -l -p $3 2>/dev/null &
	sleep 0.3
	sleep 2 | nc $1 $3 >$W/b.cli 2>/dev/null
	sleep 0.5
	[ $(wc -c <$W/a.srv) = 300000 ] && [ $(wc -c <$W/b.cli) = 500000 ] ||
		fail "nc passed $(wc -c <$W/a.srv) and $(wc -c <$W/b.cli) bytes, not 300000 and 500000"
}
sessions 127.0.0.1 5571 5572
V6=
if have6; then sessions ::1 5573 5574; V6=1; fi
stop_tool INT
[ $RC = 0 ] || fail "tcplife: exit $RC after SIGINT"
grep -E 'tcp_sock.bytes' $W/err | sed 's/^/# /'
# bytes ADDR PORT-side(l|r) PORT FIELD WANT. busybox nc -l listens on
# IPv6 where the kernel has it: the server's end of an IPv4 connection is
# then ::ffff:127.0.0.1, as the kernel says.
bytes() {
	local v a=$1
	[ $1 = 127.0.0.1 ] && a='(::ffff:)?127\.0\.0\.1'
	if [ $2 = l ]; then k="\"lport\":$3,"; else k="\"rport\":$3,"; fi
	v=$(grep -E "\"laddr\":\"$a\",.*$k" $W/out | sed -n "s/.*\"$4\":\([0-9]*\).*/\1/p")
	[ $(echo "$v" | wc -w) = 1 ] || fail "$1: not one session with $k: '$v'"
	[ "$v" -ge $5 ] && [ "$v" -le $(($5 + 2)) ] || fail "$1 $k $4 $v, expected $5 (+ 0 to 2)"
}
# check ADDR PORT1 PORT2: the two sessions' four ends
check() {
	bytes $1 r $2 tx_bytes 300000  # the client of the first
	bytes $1 l $2 rx_bytes 300000  # its server
	bytes $1 l $3 tx_bytes 500000  # the server of the second
	bytes $1 r $3 rx_bytes 500000  # its client
	CHECKED=$((${CHECKED:-0} + 1))
}
check 127.0.0.1 5571 5572
[ -n "$V6" ] && check ::1 5573 5574
# the kprobe on tcp_set_state (before 4.16) where the kernel has both, and
# BTF for struct sock
if [ -e $T/kprobe_events ] && grep -q inet_sock_set_state $T/available_events &&
	[ -r /sys/kernel/btf/vmlinux ]; then
	start_tool env BAREBPF_TCP=kprobes barebpf tcplife -j -v
	started || fail "tcplife with BAREBPF_TCP=kprobes exited $RC"
	sessions 127.0.0.1 5576 5577
	stop_tool INT
	[ $RC = 0 ] || fail "tcplife (kprobes): exit $RC after SIGINT"
	grep -q "BAREBPF_TCP=kprobes" $W/err || fail "not through the kprobe"
	check 127.0.0.1 5576 5577
	diag "the kprobe's bytes are the tracepoint's"
fi
# the discovery of tcp_sock's byte counts, forced where BTF places them
# (the first run's -v): the same offsets
if [ -r /sys/kernel/btf/vmlinux ]; then
	off() { sed -n "s/^tcp_sock.$1 at offset \([0-9]*\) .*/\1/p" $2; }
	BA=$(off bytes_acked $W/err); BR=$(off bytes_received $W/err)
	start_tool env BAREBPF_FIELDS=discover:tcp_sock.bytes_acked,tcp_sock.bytes_received barebpf tcplife -v --duration 1
	wait_exit 60 "1 s"
	[ $RC = 0 ] || fail "tcplife with the discovery forced: exit $RC"
	grep 'tcp_sock.bytes' $W/err | sed 's/^/# /'
	[ -n "$BA" ] && [ "$(off bytes_acked $W/err)" = "$BA" ] &&
		[ "$(off bytes_received $W/err)" = "$BR" ] ||
		fail "discovered offsets $(off bytes_acked $W/err)/$(off bytes_received $W/err), BTF's $BA/$BR"
fi
# bcc's text: TX_KB, RX_KB
start_tool barebpf tcplife -D 5575
wait_tracing 60
sleep 4 | nc -l -p 5575 >/dev/null 2>&1 &
sleep 0.3
dd if=/dev/zero bs=1000 count=300 2>/dev/null | nc 127.0.0.1 5575 >/dev/null 2>&1
sleep 0.5
stop_tool INT
grep -qE '^PID +COMM +LADDR +LPORT +RADDR +RPORT +TX_KB +RX_KB +MS$' $W/out || fail "no bcc header line"
[ "$(awk '$6 == 5575 { print $7, $8 }' $W/out)" = "292 0" ] || fail "-D 5575: not one line with TX_KB 292 RX_KB 0"
[ -z "$(our_probes)" ] || fail "probes left in kprobe_events"
[ "$CHECKED" -ge 1 ] || fail "the sessions were not checked"
pass
