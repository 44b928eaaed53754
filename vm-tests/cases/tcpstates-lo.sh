# barebpf tcpstates -j: each state change of a TCP connection over lo
# that this case opens and closes (busybox nc, 127.0.0.1 and, where the
# kernel has IPv6, ::1): the client's SYN_SENT -> ESTABLISHED ->
# FIN_WAIT1 -> FIN_WAIT2 -> CLOSE (it closes first), the server's
# SYN_RECV -> ESTABLISHED -> CLOSE_WAIT -> LAST_ACK -> CLOSE, each once,
# with the addresses and ports; the time in ESTABLISHED at least the
# second the client held it. From sock:inet_sock_set_state (4.16+) or a
# kprobe on tcp_set_state with struct sock's offsets (BTF, else the
# discovery; without either it refuses, and the case SKIPs saying so);
# where the kernel has both and BTF, the kprobe again (BAREBPF_TCP).
# Then bcc's text header, and no probe left.
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
start_tool barebpf tcpstates -j -v
if ! started; then
	if grep -q "field sock.__sk_common.* cannot discover it" $W/err; then
		skip "no BTF and no discovery of struct sock's fields yet: $(head -n 1 $W/err)"
	fi
	fail "tcpstates exited $RC before tracing"
fi
# pair ADDR PORT: a server (nc -l) and a client that holds it 1 s, then
# closes first
pair() {
	sleep 3 | nc -l -p $2 >/dev/null 2>&1 &
	sleep 0.3
	sleep 1 | nc $1 $2 >/dev/null 2>&1
	sleep 0.5
}
pair 127.0.0.1 5581
V6=
if have6; then pair ::1 5582; V6=1; fi
sleep 0.5
stop_tool INT
[ $RC = 0 ] || fail "tcpstates: exit $RC after SIGINT"
grep -E '^sock\.__sk_common\.skc_state|inet_sock_set_state' $W/err | sed 's/^/# /'
# check ADDR PORT: the client's port from its SYN_SENT -> ESTABLISHED.
# busybox nc -l listens on IPv6 where the kernel has it: the server's
# end of an IPv4 connection is then ::ffff:127.0.0.1, as the kernel says.
check() {
	local a=$1 p=$2 cp sa
	sa=$a; [ $a = 127.0.0.1 ] && sa='(::ffff:)?127\.0\.0\.1'
	cp=$(grep "\"raddr\":\"$a\",\"rport\":$p,\"oldstate\":\"SYN_SENT\",\"newstate\":\"ESTABLISHED\"" $W/out |
		sed -n 's/.*"lport":\([0-9]*\),.*/\1/p' | head -n 1)
	[ -n "$cp" ] || fail "no SYN_SENT -> ESTABLISHED of a client to $a:$p"
	one() {
		n=$(grep -cE "\"laddr\":\"$1\",\"lport\":$2,\"raddr\":\"$1\",\"rport\":$3,\"oldstate\":\"$4\",\"newstate\":\"$5\"" $W/out)
		[ "$n" = 1 ] || fail "$1: $n changes $2 -> $3 $4 -> $5, expected 1"
	}
	one $a $cp $p ESTABLISHED FIN_WAIT1
	one $a $cp $p FIN_WAIT1 FIN_WAIT2
	one $a $cp $p FIN_WAIT2 CLOSE
	one "$sa" $p $cp SYN_RECV ESTABLISHED
	one "$sa" $p $cp ESTABLISHED CLOSE_WAIT
	one "$sa" $p $cp CLOSE_WAIT LAST_ACK
	one "$sa" $p $cp LAST_ACK CLOSE
	ms=$(grep "\"lport\":$cp,\"raddr\":\"$a\",\"rport\":$p,\"oldstate\":\"ESTABLISHED\"" $W/out |
		sed -n 's/.*"ms":\([0-9]*\).*/\1/p')
	[ -n "$ms" ] && [ "$ms" -ge 900 ] || fail "$a: ESTABLISHED for '$ms' ms, the client held it 1 s"
}
check 127.0.0.1 5581
[ -n "$V6" ] && check ::1 5582
# the kprobe on tcp_set_state (the way of kernels before 4.16) where BTF
# places struct sock's fields: the same changes
if [ -r /sys/kernel/btf/vmlinux ] && [ -e $T/kprobe_events ]; then
	start_tool env BAREBPF_TCP=kprobes barebpf tcpstates -j -v
	started || fail "tcpstates with BAREBPF_TCP=kprobes exited $RC"
	pair 127.0.0.1 5584
	[ -n "$V6" ] && pair ::1 5585
	sleep 0.5
	stop_tool INT
	[ $RC = 0 ] || fail "tcpstates (kprobes): exit $RC after SIGINT"
	grep -q "BAREBPF_TCP=kprobes" $W/err || fail "not through the kprobe"
	check 127.0.0.1 5584
	[ -n "$V6" ] && check ::1 5585
	diag "the kprobe's changes are the tracepoint's"
fi
# bcc's text
start_tool barebpf tcpstates -L 5583
wait_tracing 60
pair 127.0.0.1 5583
stop_tool INT
[ $RC = 0 ] || fail "tcpstates -L: exit $RC after SIGINT"
grep -qE '^SKADDR +C-PID +C-COMM +LADDR +LPORT +RADDR +RPORT +OLDSTATE +-> +NEWSTATE +MS$' $W/out || fail "no bcc header line"
n=$(awk '$5 == 5583' $W/out | wc -l)
[ $n -ge 4 ] && [ $n = $(($(wc -l <$W/out) - 2)) ] || fail "-L 5583: $n changes of port 5583, or others"
[ -z "$(our_probes)" ] || fail "probes left in kprobe_events"
pass
