# How long each tool takes from its start to its "Tracing" line (its own
# -v line "attached N probes in X ms"), three starts each, on an idle
# nullb0; and what reading the kernel's function lists costs here, which
# is where the kprobe tools spend most of that time (make vm-bench).
. /vmtest/lib.sh
need_tracefs
cs() { cut -d' ' -f1 /proc/uptime | tr -d .; } # centiseconds
t0=$(cs); n=$(wc -l <$T/available_filter_functions); t1=$(cs)
diag "available_filter_functions: $n lines in $(((t1 - t0) * 10)) ms"
t0=$(cs); n=$(wc -l </proc/kallsyms); t1=$(cs)
diag "/proc/kallsyms: $n lines in $(((t1 - t0) * 10)) ms"
for f in percpu_ref_kill_and_confirm percpu_ref_resurrect percpu_ref_reinit; do
	diag "$f: $(grep -c "^$f\$" $T/available_filter_functions) in available_filter_functions, $(grep -c " $f\$" /proc/kallsyms) in kallsyms"
done
# start_time LABEL TOOL ARGS...: three starts; the tool's -v figures
start_time() {
	local l=$1 r=0 v= w; shift
	while [ $r -lt 3 ]; do
		start_tool barebpf "$@" -v
		wait_tracing 120
		stop_tool INT
		[ $RC = 0 ] || fail "$* exited $RC: $(cat $W/err)"
		w=$(sed -n 's/^attached \([0-9]*\) probes\{0,1\} in \([0-9]*\) ms$/\1 \2/p' $W/err)
		[ -n "$w" ] || fail "$*: no 'attached N probes in X ms' line: $(cat $W/err)"
		v="$v ${w#* }"
		r=$((r + 1))
	done
	diag "$(printf '%-12s %3s probes, ms to Tracing:%s' $l "${w% *}" "$v")"
}
start_time funclatency funclatency blk_mq_start_request
start_time trace trace blk_mq_start_request
start_time qenter qenter
start_time slowbio slowbio
start_time freeze freeze
start_time biolatency biolatency
start_time biosnoop biosnoop
pass
