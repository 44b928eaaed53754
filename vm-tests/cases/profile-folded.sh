# profile -f -p PID 3 of a program spinning in a loop (guest/spin.c, with
# its .symtab; an ELF32 on armv7): the perf_event program on every CPU (the
# cpu-clock where the guest has no PMU), folded lines "comm;frames count"
# of that process only, at least 30 samples of the 3 s at 99 Hz, most of
# them with its function vmtest_spin_inner named among the user frames
# (the sampled address itself: the leaf frame needs no unwinding), and
# profile --build-id of the same: where the kernel has build-id stack maps
# (4.17) the same function named, through the file of the build id the
# kernel gives; before, refused with the reason; then
# offcputime -f -p PID 3 of a shell that sleeps in a
# loop: its off-CPU microseconds add up to most of the 3 s. All exit by
# themselves.
. /vmtest/lib.sh
[ -x /vmtest/spin ] || fail "no /vmtest/spin: $(cat /vmtest/spin.why 2>/dev/null)"
/vmtest/spin &
SPIN=$!
start_tool barebpf profile -f -F 99 -p $SPIN 3
wait_exit 60 "3 s"
[ $RC = 0 ] || fail "profile: exit $RC: $(cat $W/err)"
lines=$(wc -l <$W/out)
good=$(grep -cE '^[^ ;]+(;[^;]*)* [0-9]+$' $W/out)
n=$(awk '{ s += $NF } END { print s + 0 }' $W/out)
diag "profile: $lines lines, $good folded, $n samples"
[ "$lines" -ge 1 ] && [ "$good" = "$lines" ] || fail "not folded lines: $(head -n 3 $W/out)"
[ "$n" -ge 30 ] || fail "$n samples of a spinning program in 3 s at 99 Hz"
named=$(awk '$1 ~ /(^|;)vmtest_spin_inner(;|$)/ { s += $NF } END { print s + 0 }' $W/out)
diag "profile: $named samples in vmtest_spin_inner; $(sort -k2 -n -r $W/out | head -n 2 | tr '\n' '|')"
[ $((named * 2)) -ge "$n" ] || fail "$named of $n samples name vmtest_spin_inner: $(head -n 3 $W/out)"
start_tool barebpf profile -f -F 99 --build-id -p $SPIN 2
wait_exit 60 "2 s"
kill $SPIN 2>/dev/null
if [ "$(kernel_version_code)" -lt $((4 * 65536 + 17 * 256)) ]; then
	[ $RC = 1 ] && grep -q "no build-id stack maps" $W/err ||
		fail "profile --build-id on $(uname -r): exit $RC: $(cat $W/err)"
	diag "profile --build-id refused: $(cat $W/err)"
else
	[ $RC = 0 ] || fail "profile --build-id: exit $RC: $(cat $W/err)"
	n=$(awk '{ s += $NF } END { print s + 0 }' $W/out)
	named=$(awk '$1 ~ /(^|;)vmtest_spin_inner(;|$)/ { s += $NF } END { print s + 0 }' $W/out)
	diag "profile --build-id: $named of $n samples in vmtest_spin_inner"
	[ "$n" -ge 20 ] && [ $((named * 2)) -ge "$n" ] ||
		fail "--build-id: $named of $n samples name vmtest_spin_inner: $(head -n 3 $W/out)"
fi
sh -c 'while :; do sleep 0.2; done' &
NAP=$!
start_tool barebpf offcputime -f -p $NAP 3
wait_exit 60 "3 s"
kill $NAP 2>/dev/null
[ $RC = 0 ] || fail "offcputime: exit $RC: $(cat $W/err)"
us=$(awk '{ s += $NF } END { print s + 0 }' $W/out)
diag "offcputime: $(wc -l <$W/out) stacks, $us us off CPU"
[ "$us" -ge 1500000 ] || fail "$us us off CPU of a sleeping shell in 3 s"
pass
