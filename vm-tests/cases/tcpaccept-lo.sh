# barebpf tcpaccept: each of a known set of TCP connections over lo
# (busybox nc) is listed once with the listener's pid, the client's
# address and port (as /proc/net/tcp lists it), the local address and
# port. busybox's nc listens on :: where the kernel has IPv6: its IPv4
# connections are then IPv6 ones to ::ffff:127.0.0.1 (as bcc shows them).
. /vmtest/lib.sh
need_tracefs
lo_up
start_tool barebpf tcpaccept -v
wait_tracing 60
tcp_pair 127.0.0.1 5571 2; L1=$LPID
tcp_pair 127.0.0.1 5572 2; L2=$LPID
V6=
if have_ipv6; then tcp_pair ::1 5573 2; L3=$LPID; V6=1; fi
sleep 0.5
A=127.0.0.1; IP=4
if [ -n "$V6" ]; then A=::ffff:127.0.0.1; IP=6; fi
P1=$(tcp_peer_port tcp 5571); P2=$(tcp_peer_port tcp 5572)
[ -n "$V6" ] && P3=$(tcp_peer_port tcp6 5573)
stop_tool INT
[ $RC = 0 ] || fail "tcpaccept: exit $RC after SIGINT"
grep -qE '^PID +COMM +IP +RADDR +RPORT +LADDR +LPORT$' $W/out || fail "no bcc header line"
[ -n "$P1" ] && [ -n "$P2" ] || fail "the connections are not in /proc/net/tcp"
# PID COMM IP RADDR RPORT LADDR LPORT
line() { awk -v p=$1 -v ip=$2 -v r=$3 -v rp=$4 -v l=$5 -v lp=$6 '$1 == p && $2 == "nc" && $3 == ip && $4 == r && $5 == rp && $6 == l && $7 == lp' $W/out | wc -l; }
[ $(line $L1 $IP $A $P1 $A 5571) = 1 ] || fail "no line for pid $L1 $A:$P1 -> $A:5571"
[ $(line $L2 $IP $A $P2 $A 5572) = 1 ] || fail "no line for pid $L2 $A:$P2 -> $A:5572"
if [ -n "$V6" ]; then
	[ -n "$P3" ] || fail "the IPv6 connection is not in /proc/net/tcp6"
	[ $(line $L3 6 ::1 $P3 ::1 5573) = 1 ] || fail "no line for pid $L3 [::1]:$P3 -> [::1]:5573"
fi
n=$(awk '$2 == "nc"' $W/out | wc -l)
[ $n = $((2 + ${V6:-0})) ] || fail "$n accepts by nc, expected $((2 + ${V6:-0}))"
wait
# | head -n 4: the Tracing line, the header and two accepts, then the
# tool ends at its next write (SIGPIPE), its probe removed
( barebpf tcpaccept -v -P 5574 | head -n 4 >$W/head ) 2>$W/head.err &
HP=$!
i=0
while ! grep -q attached $W/head.err 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
for k in 1 2 3 4; do tcp_pair 127.0.0.1 5574 0.2; wait $LPID $CPID; done
i=0
while [ -d /proc/$HP ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -d /proc/$HP ] && fail "tcpaccept | head -n 4: still running 10 s after"
[ $(grep -c ' 5574$' $W/head) = 2 ] || { cat $W/head $W/head.err; fail "| head -n 4: not 2 accepts"; }
wait
[ -z "$(our_probes)" ] || fail "probes left in kprobe_events"
pass
