# vmtest-timeout: 120
# breakdown's crash on armv7 6.12 and riscv64 7.x (README.md, "Known
# problems: armv7 and riscv64"), one probe set per case: breakdown of three nested functions (the reproducer).
# panic_on_oops: a crash stops the guest, which run.sh boots again for
# the next case (an oops inside a BPF program leaves that CPU's programs
# off). Passes when the kernel survives.
. /vmtest/lib.sh
need_tracefs
need_kprobes_list
echo 1 >/proc/sys/kernel/panic_on_oops
start_tool barebpf breakdown -t 0 submit_bio_noacct __bio_queue_enter blk_mq_submit_bio
wait_tracing 60
diag "kprobes: $(tr '\n' ';' <$KLIST)"
workload 3
workload 30
stop_tool INT
diag "out: $(head -c 400 $W/out | tr '\n' ';')"
[ $RC = 0 ] || fail "exit $RC"
pass
