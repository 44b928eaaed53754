# barebpf tcpconnect -L -U: each of a known set of TCP connections over
# lo (busybox nc, IPv4 to 127.0.0.1 and, where the kernel has IPv6, to
# ::1) is listed once with the client's pid, its local port (as
# /proc/net/tcp lists it) and the destination; -P PORT lists that port's
# only, -6 (or -4) that family's only. The offsets: BTF, or the discovery (4.x); -v says which.
. /vmtest/lib.sh
need_tracefs
lo_up
mkdir -p /run # the discovery's cache is in /run, as on any system
start_tool barebpf tcpconnect -v -L -U
wait_tracing 60
tcp_pair 127.0.0.1 5561 2; C1=$CPID
tcp_pair 127.0.0.1 5562 2; C2=$CPID
V6=
if have_ipv6; then tcp_pair ::1 5563 2; C3=$CPID; V6=1; fi
sleep 0.5
P1=$(tcp_peer_port tcp 5561); P2=$(tcp_peer_port tcp 5562)
[ -n "$V6" ] && P3=$(tcp_peer_port tcp6 5563)
stop_tool INT
[ $RC = 0 ] || fail "tcpconnect: exit $RC after SIGINT"
grep -qE '^UID +PID +COMM +IP +SADDR +LPORT +DADDR +DPORT$' $W/out || fail "no bcc header line"
grep -E '^sock\.__sk_common\.skc_dport at offset' $W/err | sed 's/^/# /'
[ -n "$P1" ] && [ -n "$P2" ] || fail "the connections are not in /proc/net/tcp"
# UID PID COMM IP SADDR LPORT DADDR DPORT
line() { awk -v p=$1 -v ip=$2 -v s=$3 -v l=$4 -v d=$5 -v dp=$6 '$1 == 0 && $2 == p && $3 == "nc" && $4 == ip && $5 == s && $6 == l && $7 == d && $8 == dp' $W/out | wc -l; }
[ $(line $C1 4 127.0.0.1 $P1 127.0.0.1 5561) = 1 ] || fail "no line for pid $C1 127.0.0.1:$P1 -> 127.0.0.1:5561"
[ $(line $C2 4 127.0.0.1 $P2 127.0.0.1 5562) = 1 ] || fail "no line for pid $C2 127.0.0.1:$P2 -> 127.0.0.1:5562"
if [ -n "$V6" ]; then
	[ -n "$P3" ] || fail "the IPv6 connection is not in /proc/net/tcp6"
	[ $(line $C3 6 ::1 $P3 ::1 5563) = 1 ] || fail "no line for pid $C3 [::1]:$P3 -> [::1]:5563"
fi
n=$(awk '$3 == "nc"' $W/out | wc -l)
[ $n = $((2 + ${V6:-0})) ] || fail "$n connects by nc, expected $((2 + ${V6:-0}))"
wait
# -P: that port only; -j; where the kernel has IPv6, -6: IPv6 only (an
# IPv4 connection to the same port is left out), else -4. The
# discovery's offsets (no BTF) from the boot's cache this time.
if [ -n "$V6" ]; then FAM=-6 ADDR=::1 IP=6; else FAM=-4 ADDR=127.0.0.1 IP=4; fi
start_tool barebpf tcpconnect -P 5562 $FAM -j -v
wait_tracing 60
tcp_pair 127.0.0.1 5561 1
[ -n "$V6" ] && tcp_pair 127.0.0.1 5562 1
tcp_pair $ADDR 5562 1; C2=$CPID
sleep 0.3
stop_tool INT
[ $RC = 0 ] || fail "tcpconnect -P $FAM: exit $RC after SIGINT"
n=$(grep -c '"dport":' $W/out)
[ $n = 1 ] || fail "-P 5562 $FAM -j: $n records, expected 1: $(cat $W/out)"
grep -q "\"pid\":$C2,.*\"ip\":$IP,.*\"daddr\":\"$ADDR\",\"dport\":5562" $W/out ||
	fail "-P 5562 $FAM: not the connection of $C2 to $ADDR:5562: $(cat $W/out)"
if [ ! -e /sys/kernel/btf/vmlinux ]; then
	grep -q 'skc_dport at offset .*discovered earlier this' $W/err ||
		fail "the second run did not take the offsets from the cache"
fi
wait
# -c: per flow, at the end: 3 connects to 5564, 1 to 5565
start_tool barebpf tcpconnect -c
wait_tracing 60
for p in 5564 5564 5564 5565; do tcp_pair 127.0.0.1 $p 0.3; wait $LPID $CPID; done
stop_tool INT
[ $RC = 0 ] || fail "tcpconnect -c: exit $RC after SIGINT"
grep -qE '^LADDR +RADDR +RPORT +CONNECTS *$' $W/out || fail "-c: no bcc header line"
grep -qE '^127\.0\.0\.1 +127\.0\.0\.1 +5564 +3 *$' $W/out || fail "-c: no flow to 5564 with 3 connects"
grep -qE '^127\.0\.0\.1 +127\.0\.0\.1 +5565 +1 *$' $W/out || fail "-c: no flow to 5565 with 1 connect"
wait
[ -z "$(our_probes)" ] || fail "probes left in kprobe_events"
pass
