# Syscall probes resolved to this kernel's function: kprobe/sys_kill (the
# old spelling), ksyscall/kill and kretsyscall/kill each count exactly N
# kill(2) calls of one shell, and BB_SYSCALL_ARG reads the signal number
# whether the kernel passes arguments (4.15: SyS_kill) or a struct pt_regs *
# (x86_64 4.17+: __x64_sys_kill; arm64 4.19+: __arm64_sys_kill; riscv64
# 5.19+: __riscv_sys_kill; never on 32-bit ARM, whose object names
# __x64_sys_kill and is refused as on 4.x).
. /vmtest/lib.sh
need_tracefs
o=/vmtest/bpf/syscalls.bpf.o
[ -f $o ] || skip "$(cat /vmtest/bpf/why 2>/dev/null || echo "no $o")"
# the caller: waits for the go file, then sends itself N SIGCONTs (18)
sh -c "while [ ! -f $W/go ]; do sleep 0.1; done; i=0; while [ \$i -lt $N ]; do kill -18 \$\$; i=\$((i+1)); done" &
CALLER=$!
start_tool barebpf run -c bb_tgid=$CALLER $o
wait_tracing 60 Running
touch $W/go
wait $CALLER
sleep 0.5
stop_tool INT
[ $RC = 0 ] || fail "exit $RC after SIGINT"
diag "$(cat $W/err)"
for s in "0 kprobe/sys_kill" "1 ksyscall/kill" "2 kretsyscall/kill"; do
	v=$(run_map_value $W/out calls ${s%% *})
	[ "$v" = $N ] || fail "${s#* } counted '$v' for $N kill calls"
done
v=$(run_map_value $W/out calls 3)
[ "$v" = $((18 * N)) ] || fail "BB_SYSCALL_ARG(ctx, 2) summed '$v', not $((18 * N))"
# the pt_regs wrappers: x86_64 from 4.17, arm64 from 4.19, riscv64 from
# 5.19 (the kernels tested), none on 32-bit ARM
wrap=1
case $(uname -m) in aarch64) fn=__arm64_sys_kill ;; riscv64) fn=__riscv_sys_kill ;; arm*) fn=__x64_sys_kill wrap=0 ;; *) fn=__x64_sys_kill ;; esac
case $(uname -r) in 4.*) wrap=0 ;; esac
case $wrap in
0) ;;
*) grep -q "kprobe/sys_kill: old_spelling attached to $fn, which takes the syscall's struct pt_regs" $W/err ||
	fail "no note that sys_kill is $fn here" ;;
esac
no_probes_left "SIGINT"
# kprobe/__x64_sys_kill (__arm64_sys_kill): counts where the kernel has the
# pt_regs wrapper; on 4.x the function found takes the arguments
# themselves, and the load is refused with the fix named, nothing left
o=/vmtest/bpf/syscalls_wrap.bpf.o
sh -c "while [ ! -f $W/go2 ]; do sleep 0.1; done; i=0; while [ \$i -lt $N ]; do kill -18 \$\$; i=\$((i+1)); done" &
CALLER=$!
start_tool barebpf run -c bb_tgid=$CALLER $o
case $wrap in
0)
	wait_exit 60 "the refused load"
	touch $W/go2; wait $CALLER
	[ $RC != 0 ] || fail "$fn in a kprobe section loaded on $(uname -r), where SyS_kill takes the arguments"
	grep -q "section kprobe/$fn: this kernel's syscall functions (here [A-Za-z_]*_kill) take the arguments themselves, not a struct pt_regs \*.*name the section ksyscall/kill" $W/err ||
		fail "no message naming ksyscall/kill: $(cat $W/err)"
	no_probes_left "the refused load" ;;
*)
	wait_tracing 60 Running
	touch $W/go2; wait $CALLER
	sleep 0.5
	stop_tool INT
	[ $RC = 0 ] || fail "kprobe/$fn: exit $RC after SIGINT"
	v=$(run_map_value $W/out calls 0)
	[ "$v" = $N ] || fail "kprobe/$fn counted '$v' for $N kill calls" ;;
esac
pass
