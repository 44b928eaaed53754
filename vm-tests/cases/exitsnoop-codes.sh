# barebpf exitsnoop: each of a known set of children of this shell (exit
# 0, 3 and 255, killed by SIGKILL and by SIGSEGV with core dumps off) is
# reported once, this shell as its parent, with bcc's EXIT_CODE text and
# an age; -x leaves the exit 0 out. The task_struct fields come from the
# kernel's BTF where it has one, else from the discovery (-v says which);
# with BTF, BAREBPF_FIELDS=discover must find the same offsets.
. /vmtest/lib.sh
ulimit -c 0 2>/dev/null
# each child writes its pid, then ends as the next line of $W/ends says
kids() {
	: >$W/pids
	sh -c "echo \$\$ >>$W/pids; exit 0"
	sh -c "echo \$\$ >>$W/pids; exit 3"
	sh -c "echo \$\$ >>$W/pids; exit 255"
	sh -c "echo \$\$ >>$W/pids; kill -KILL \$\$"
	sh -c "echo \$\$ >>$W/pids; kill -SEGV \$\$"
}
ENDS="0|code 3|code 255|signal 9 (KILL)|signal 11 (SEGV)"
offsets() { grep -o 'task_struct\.[a-z_]* at offset [0-9]* ([0-9]* bytes)' $W/err; }
for x in "" -x discover; do
	if [ "$x" = discover ]; then
		[ -e /sys/kernel/btf/vmlinux ] || continue
		start_tool env BAREBPF_FIELDS=discover barebpf exitsnoop -v
	else
		start_tool barebpf exitsnoop -v $x
	fi
	# riscv64 7.x: Debian's riscv64 has the JIT off, and this verifier
	# inlines bpf_get_current_task with an instruction only the JIT has:
	# exitsnoop takes the exiting task from the raw tracepoint there
	# (-v says so)
	wait_tracing 60
	kids 2>/dev/null
	sleep 0.5
	stop_tool INT
	[ $RC = 0 ] || fail "exitsnoop $x: exit $RC after SIGINT: $(cat $W/err)"
	diag "$(offsets)"
	grep '^the exiting task' $W/err | sed 's/^/# /'
	[ $(offsets | wc -l) = 4 ] || fail "exitsnoop $x: not 4 fields: $(cat $W/err)"
	grep -qE '^PCOMM +PID +PPID +TID +AGE\(s\) +EXIT_CODE$' $W/out || fail "no bcc header line"
	[ $(wc -l <$W/pids) = 5 ] || fail "not 5 children: $(cat $W/pids)"
	# PCOMM PID PPID TID AGE EXIT_CODE...: each child's lines, its end
	i=0
	seen=
	for pid in $(cat $W/pids); do
		i=$((i + 1))
		want=$(echo "$ENDS" | cut -d'|' -f$i)
		got=$(awk -v me=$$ -v p=$pid '$2 == p && $3 == me && $4 == p && $5 ~ /^[0-9]+\.[0-9][0-9]$/ { $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print }' $W/out)
		seen="$seen $pid: ${got:--};"
		if [ "$x" = -x ] && [ $i = 1 ]; then
			[ -z "$got" ] || fail "-x: exit 0 of $pid shown: $got"
		else
			[ "$got" = "$want" ] || fail "child $pid: '$got', expected '$want' (once, with an age): $(grep " $pid " $W/out)"
		fi
	done
	diag "exitsnoop $x:$seen"
	if [ -z "$x" ]; then
		offsets >$W/first
		grep -q discovered $W/err && diag "fields discovered" || diag "fields from BTF"
	fi
	if [ "$x" = discover ]; then
		offsets | cmp -s - $W/first || fail "discovered $(offsets), BTF $(cat $W/first)"
		grep -c 'discovered' $W/err | grep -q '^4$' || fail "not discovered: $(cat $W/err)"
	fi
done
pass
