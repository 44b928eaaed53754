# barebpf run on an object whose kprobe, with an 8-byte frame, tail-calls
# a program that fills 480 bytes of its stack (vm-tests/bpf/
# vmtest_tailframe.bpf.c). A 6.9+ kernel without a JIT runs the callee in
# the caller's frame: loader/obj/tailframe.c pads the caller's frame to
# 512 bytes there, and says so; elsewhere it must not. The callee must run,
# the guest live on, and the run leave nothing behind.
. /vmtest/lib.sh
need_tracefs
o=/vmtest/bpf/vmtest_tailframe.bpf.o
[ -f $o ] || skip "$(cat /vmtest/bpf/why 2>/dev/null || echo "no $o")"
start_tool barebpf run $o
wait_tracing 60 Running
i=0
while [ $i -lt 50 ]; do cat /proc/version >/dev/null; i=$((i + 1)); done
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT: $(head -c 600 $W/err)"
v=$(run_map_value $W/out counts 0)
[ "${v:-0}" -gt 0 ] 2>/dev/null || fail "the tail-called program never ran (counts[0] '$v')"
jit=$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo 0)
diag "callee ran $v times; bpf_jit_enable $jit; $(grep -o 'padded to [0-9]* bytes' $W/err | head -n 1)"
if [ $(kernel_version_code) -ge $((6 * 65536 + 9 * 256)) ] && [ "$jit" = 0 ]; then
	grep -q "program shallow: its stack frame padded to 512 bytes" $W/err ||
		fail "6.9+ without a JIT: no padding said: $(head -c 600 $W/err)"
else
	! grep -q "padded to 512" $W/err || fail "padded where the kernel needs none: $(head -c 600 $W/err)"
fi
no_probes_left "SIGINT"
pass
