# trace's struct members through the field-offset layer (issue 29 item 3):
# with the kernel's BTF, bcc's signature form on tcp_v4_connect reads the
# sock's family (AF_INET, 2) and state (TCP_CLOSE, 7, at the entry of a
# connect) for each of N connects over loopback, and the cast form on the
# same argument agrees; a return probe reads the accepted sock's local
# port through a cast of retval (inet_csk_accept) for each of 3 accepts
# of a busybox nc listener; without BTF (4.15) the probe is refused,
# naming the field and --btf, with nothing left behind.
. /vmtest/lib.sh
need_tracefs
P='p::tcp_v4_connect(struct sock *sk) "fam=%d state=%d cast=%d", sk->__sk_common.skc_family, sk->sk_state, ((struct sock *)arg1)->__sk_common.skc_family'
A='r::inet_csk_accept "port=%d", ((struct sock *)retval)->__sk_common.skc_num'
if [ ! -e /sys/kernel/btf/vmlinux ]; then
	barebpf trace "$P" >$W/out 2>$W/err && fail "trace ran without BTF"
	diag "$(cat $W/err)"
	grep -q 'field sock.__sk_common.skc_family' $W/err || fail "the refusal does not name the field"
	grep -q -- '--btf FILE' $W/err || fail "the refusal does not say --btf FILE"
	no_probes_left "the refusal"
	pass
fi
ifconfig lo 127.0.0.1 up 2>/dev/null || ip link set lo up 2>/dev/null
start_tool barebpf trace -v -n nc "$P" "$A"
wait_tracing 60
i=0
while [ $i -lt $N ]; do
	# nobody listens: the connect is refused, after tcp_v4_connect ran
	nc -w 1 127.0.0.1 19437 </dev/null >/dev/null 2>&1
	i=$((i + 1))
done
for i in 1 2 3; do
	nc -l -p 19438 </dev/null >/dev/null 2>&1 &
	L=$!
	sleep 0.3
	nc -w 1 127.0.0.1 19438 </dev/null >/dev/null 2>&1
	sleep 0.2
	kill $L 2>/dev/null; wait $L 2>/dev/null
done
sleep 1   # let the reader drain the perf buffers
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
grep 'field sock' $W/err | while read -r l; do diag "$l"; done
c=$(grep -cE ' nc +tcp_v4_connect +fam=2 state=7 cast=2$' $W/out)
all=$(grep -c ' tcp_v4_connect ' $W/out)
a=$(grep -cE ' nc +inet_csk_accept +port=19438$' $W/out)
diag "$c of $all lines fam=2 state=7 cast=2 for $N + 3 connects; $a accepts"
[ "$c" = $((N + 3)) ] || fail "$c lines fam=2 state=7 cast=2 for $N + 3 connects"
[ "$all" = $((N + 3)) ] || fail "$all lines for $N + 3 connects"
[ "$a" = 3 ] || fail "$a lines port=19438 for 3 accepts"
no_probes_left "SIGINT"
pass
