# softirqs -C against /proc/softirqs, bracketed: the tool counts from its
# attach to its summary, so each vector's count lies between the
# kernel's delta over an inner window (after the Tracing line, before the
# SIGINT) and over an outer one (before the start, after the exit), for
# every vector that ran 30 times or more, while nullb0 completes 100
# reads; bcc's header; exits 0. (Under TCG the two windows differ by
# seconds: the host test holds the counts within 5% of the kernel's.)
. /vmtest/lib.sh
need_tracefs
sums() { awk 'NR > 1 { s = 0; for (i = 2; i <= NF; i++) s += $i; n = tolower($1); sub(":", "", n); print n, s }' /proc/softirqs >$1; }
of() { awk -v n=$1 '$1 == n { print $2 }' $2; }
sums $W/o1
start_tool barebpf softirqs -C
wait_tracing 60
sums $W/i1
workload
sums $W/i2
stop_tool INT 60
sums $W/o2
[ $RC = 0 ] || fail "exit $RC: $(tail -n 3 $W/err)"
grep -q '^SOFTIRQ          TOTAL_count$' $W/out || fail "not bcc's header"
n=0
while read name o2; do
	lo=$(($(of $name $W/i2) - $(of $name $W/i1)))
	hi=$((o2 - $(of $name $W/o1)))
	[ $hi -ge 30 ] || continue
	got=$(of $name $W/out)
	[ ${got:-0} -ge $lo ] && [ ${got:-0} -le $hi ] ||
		fail "$name: softirqs counted '$got', /proc/softirqs $lo to $hi"
	diag "$name $got, /proc/softirqs $lo to $hi"
	n=$((n + 1))
done <$W/o2
[ $n -ge 1 ] || fail "no vector ran 30 times"
pass
