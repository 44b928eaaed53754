# hardirqs -C against /proc/interrupts, bracketed as softirqs-count: each
# handler's count lies between the kernel's delta over the inner window
# (after the Tracing line, before the SIGINT) and the outer one (before
# the start, after the exit), for every name of a line of one handler
# that fired 30 times or more, the calls that returned IRQ_NONE (-v)
# included, while 16 KiB go out on the serial console; bcc's header;
# exits 0.
. /vmtest/lib.sh
need_tracefs
# a name on two lines (i8042's 1 and 12) is one row of hardirqs
sums() {
	awk 'NR > 1 && $1 ~ /^[0-9]+:$/ && $0 !~ /,/ {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s[$NF] += $i }
		END { for (n in s) print n, s[n] }' /proc/interrupts >$1
}
of() { awk -v n="$1" '$1 == n { print $2 }' $2; }
sums $W/o1
start_tool barebpf hardirqs -C -v
wait_tracing 60
sums $W/i1
# the serial console's UART interrupts: 16 KiB out on its line
tty=$(sed -n 's/.*console=\([a-zA-Z0-9]*\).*/\1/p' /proc/cmdline)
i=0
while [ $i -lt 256 ]; do
	echo "# hardirqs-count: serial load ............................................"
	i=$((i + 1))
done >/dev/${tty:-console}
workload
sums $W/i2
stop_tool INT 60
sums $W/o2
[ $RC = 0 ] || fail "exit $RC: $(tail -n 3 $W/err)"
grep -q '^HARDIRQ                    TOTAL_count$' $W/out || fail "not bcc's header"
n=0
while read name o2; do
	lo=$(($(of "$name" $W/i2) - $(of "$name" $W/i1)))
	hi=$((o2 - $(of "$name" $W/o1)))
	[ $hi -ge 30 ] || continue
	got=$(of "$name" $W/out)
	# -v: the calls that returned IRQ_NONE, which bcc does not count
	# and /proc/interrupts does (QEMU's 8250: 2 of 5 on 4.15)
	none=$(sed -n "s/^barebpf hardirqs: $name: \([0-9]*\) calls returned IRQ_NONE.*/\1/p" $W/err)
	got=$((${got:-0} + ${none:-0}))
	[ ${got:-0} -ge $lo ] && [ ${got:-0} -le $hi ] ||
		fail "$name: hardirqs counted '$got', /proc/interrupts $lo to $hi"
	diag "$name $got (${none:-0} of them IRQ_NONE), /proc/interrupts $lo to $hi"
	n=$((n + 1))
done <$W/o2
[ $n -ge 1 ] || skip "no line of one handler fired 30 times: $(cat $W/o1 $W/o2 | tr '\n' ' ')"
pass
