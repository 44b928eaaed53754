#!/bin/bash
# make bench: barebpf against bpftrace on this machine (root, a kernel with
# tracepoints), one table of figures; no threshold is asserted.
#
#   bench/bench.sh BAREBPF
#
# BENCH_BASE=REF (a git ref, e.g. main): that version of barebpf is built
# in a temporary folder and measured in the same rounds, for before/after.
# Every figure is a median over rounds that alternate between the tools,
# so that a noisy shared host slows all of them alike. Environment:
#   BENCH_STARTS (7)   starts per barebpf tool (bpftrace: 3)
#   BENCH_ROUNDS (3)   alternating rounds of the fio and getppid figures
#   BENCH_FIO_SECS (3) seconds per fio run
#   BENCH_CALLS (1000000) getppid() calls per streaming run
#   BENCH_COST (1)     0: no "ns per run" rows (the kernel's own accounting)
#   BENCH_TOOLS (1)    0: no rows of bench/tools.sh (runqlat, syscount,
#                      killsnoop, oomkill, bitesize, vfsstat; its variables)
set -u
export LC_ALL=C
B=$(readlink -f "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
STARTS=${BENCH_STARTS:-7}
BT_STARTS=3
ROUNDS=${BENCH_ROUNDS:-3}
FIO_SECS=${BENCH_FIO_SECS:-3}
CALLS=${BENCH_CALLS:-1000000}

die() { echo "bench: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (bpf(), perf events, loop devices)"
[ -x "$B" ] || die "no barebpf binary at '$1' (make first)"
command -v fio >/dev/null || die "needs fio (scripts/deps.sh)"
BT=$(command -v bpftrace || true)
# bpftrace buffers its whole output on a pipe (nothing, not even the BEGIN
# line, until exit): line-buffered as on a terminal.
BTL="-B line"
BT_READY=Tracing

W=$(mktemp -d /dev/shm/bbbench.XXXXXX)
LOOP=
STATS_WAS=
cleanup() {
	[ -n "$STATS_WAS" ] && sysctl -qw kernel.bpf_stats_enabled="$STATS_WAS"
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cc -O2 -o "$W/benchrun" "$HERE/benchrun.c" || die "cannot build benchrun"
cc -O2 -o "$W/getppid" "$HERE/getppid.c" || die "cannot build getppid"
cc -O2 -o "$W/progstats" "$HERE/progstats.c" || die "cannot build progstats"
BASE=
if [ -n "${BENCH_BASE:-}" ]; then
	echo "bench: building barebpf $BENCH_BASE for comparison..." >&2
	mkdir "$W/base"
	git -C "$HERE/.." archive "$BENCH_BASE" | tar -x -C "$W/base" &&
		nice -n 10 make -s -C "$W/base" -j"$(nproc)" >/dev/null ||
		die "cannot build $BENCH_BASE"
	BASE=$W/base/build/barebpf
fi

# the tools under test: label and command prefix
TOOLS=("barebpf" "$B")
[ -n "$BASE" ] && TOOLS+=("barebpf(base)" "$BASE")

median() { sort -g | awk '{v[NR]=$1} END {if (NR) print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2); else print "-"}'; }
minimum() { sort -g | head -n1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a+0 > 0 && b+0 > 0) printf "%.3g", a/b; else print "-"}'; }

# ---- start to attached, exit time, peak RSS ----
# run_start KEY OUTFILE CMD...: one start; appends "start exit rss" to KEY
run_start() {
	local key=$1 out=$2 pat=Tracing r; shift 2
	[ "$1" = "$BT" ] && pat=$BT_READY
	r=$("$W/benchrun" "$out" "$pat" 1000 -- "$@") || { echo "bench: $* failed: $(tail -n3 "$out")" >&2; return; }
	echo "$r" >>"$W/$key.start"
	sed -n 's/^attached [0-9]* probes\{0,1\} in \([0-9]*\) ms$/\1/p' "$out" >>"$W/$key.self"
}
declare -A CMD
CMD[biolatency]="biolatency -v"
CMD[biosnoop]="biosnoop -v"
CMD[trace]="trace -v -j t:syscalls:sys_enter_getppid"
CMD[bt_biolatency]="$HERE/biolatency.bt"
CMD[bt_biosnoop]="$HERE/biosnoop.bt"
CMD[bt_trace]="$HERE/getppid.bt"
echo "bench: start and exit times ($STARTS starts of each barebpf tool, $BT_STARTS of bpftrace's, alternating)..." >&2
# floor: fork, exec and exit of `--version`, what every start stands on
run_floor() {
	local key=$1 r; shift
	r=$("$W/benchrun" "$W/out" - exit -- "$@" --version) && echo "$r" >>"$W/$key.start"
}
for i in $(seq "$STARTS"); do
	for ((k = 0; k < ${#TOOLS[@]}; k += 2)); do
		run_floor "floor.${TOOLS[k]}" "${TOOLS[k+1]}"
	done
	[ -n "$BT" ] && [ "$i" -le "$BT_STARTS" ] && run_floor floor.bpftrace "$BT"
	for tool in biolatency biosnoop trace; do
		for ((k = 0; k < ${#TOOLS[@]}; k += 2)); do
			# shellcheck disable=SC2086
			run_start "$tool.${TOOLS[k]}" "$W/out" "${TOOLS[k+1]}" ${CMD[$tool]}
		done
		if [ -n "$BT" ] && [ "$i" -le "$BT_STARTS" ]; then
			run_start "$tool.bpftrace" "$W/out" "$BT" $BTL "${CMD[bt_$tool]}"
		fi
	done
done

# ---- per-I/O cost: fio on a loop device over tmpfs ----
truncate -s 256M "$W/disk.img"
LOOP=$(losetup -f --show "$W/disk.img") || die "cannot set up a loop device"
dd if=/dev/zero of="$LOOP" bs=1M count=256 oflag=direct status=none
FIO="fio --name=r --filename=$LOOP --rw=randread --bs=4k --direct=1 --ioengine=psync --runtime=$FIO_SECS --time_based --output-format=terse"
fio_iops() { $FIO 2>/dev/null | awk -F';' '{print $8; exit}'; }
# ready OUT CMD...: start CMD (pid in $pid) and wait until it is attached;
# it is stopped once $W/done exists
ready() {
	local out=$1 pat=Tracing; shift
	[ "$1" = "$BT" ] && pat=$BT_READY
	rm -f "$W/done" "$out"
	"$W/benchrun" "$out" "$pat" "@$W/done" -- "$@" >"$W/br" 2>&1 &
	pid=$!
	until grep -q "$pat" "$out" 2>/dev/null; do
		sleep 0.05
		kill -0 $pid 2>/dev/null || { echo "bench: $* did not start" >&2; return 1; }
	done
	[ "$pat" = "$BT_READY" ] && sleep 2
	return 0
}
# with_tool OUT CMD...: run CMD until fio is done, print fio's IOPS
with_tool() {
	local out=$1 pid iops; shift
	ready "$out" "$@" || return
	iops=$(fio_iops)
	touch "$W/done"
	wait $pid
	echo "$iops"
}
echo "bench: per-I/O cost ($ROUNDS rounds of ${FIO_SECS}s fio runs: none, then each tool)..." >&2
for tool in biolatency biosnoop; do
	for i in $(seq "$ROUNDS"); do
		fio_iops >>"$W/fio.$tool.none"
		for ((k = 0; k < ${#TOOLS[@]}; k += 2)); do
			with_tool "$W/fout" "${TOOLS[k+1]}" "$tool" >>"$W/fio.$tool.${TOOLS[k]}"
		done
		[ -n "$BT" ] && with_tool "$W/fout" "$BT" $BTL "$HERE/$tool.bt" >>"$W/fio.$tool.bpftrace"
	done
done

# ---- event streaming: getppid() loop, traced ----
# stream OUT CMD...: "rate delivered lost" of one traced loop
stream() {
	local out=$1 pid rate lpid; shift
	ready "$out" "$@" || return
	rate=$("$W/getppid" "$CALLS" "$W/lpid")
	lpid=$(cat "$W/lpid")
	# what is still in the rings reaches the output at exit
	touch "$W/done"
	wait $pid
	echo "$rate $(grep -c "\"pid\":$lpid," "$out") $(sed -n \
		-e 's/.*warning: \([0-9]*\) event(s) lost.*/\1/p' \
		-e 's/^Lost \([0-9]*\) events.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')"
}
echo "bench: event streaming ($ROUNDS rounds of $CALLS getppid() calls: untraced, then each tool)..." >&2
for i in $(seq "$ROUNDS"); do
	"$W/getppid" "$CALLS" >>"$W/pp.none"
	for ((k = 0; k < ${#TOOLS[@]}; k += 2)); do
		stream "$W/sout" "${TOOLS[k+1]}" trace -j t:syscalls:sys_enter_getppid >>"$W/pp.${TOOLS[k]}"
	done
	[ -n "$BT" ] && stream "$W/sout" "$BT" $BTL "$HERE/getppid.bt" >>"$W/pp.bpftrace"
done

# ---- the kernel's own accounting: ns per run of each BPF program ----
# With kernel.bpf_stats_enabled=1 (5.1+) the kernel times every run of a
# BPF program (run_time_ns, run_cnt): the cost of the programs alone, which
# the IOPS share above cannot tell apart from the host's noise. Each tool
# runs under the same load as above (fio; the getppid loop for trace), and
# progstats reads the figures of the programs that the tool's process holds
# just before it is stopped. Appends "NAME RUN_TIME_NS RUN_CNT" lines (one
# per program and run, in load order) to $W/cost.TOOL.LABEL.
cost_run() { # TOOL LABEL CMD...
	local tool=$1 label=$2 pid child; shift 2
	ready "$W/cout" "$@" || return
	child=$(pgrep -P "$pid" | head -n1)
	if [ "$tool" = trace ]; then
		"$W/getppid" "$CALLS" >/dev/null
	else
		fio_iops >/dev/null
	fi
	[ -n "$child" ] && "$W/progstats" "$child" | awk '{print $2, $3, $4}' >>"$W/cost.$tool.$label"
	touch "$W/done"
	wait "$pid"
}
cost_collect() {
	local tool i k
	STATS_WAS=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null) || {
		echo "bench: no kernel.bpf_stats_enabled (5.1+): no ns per run rows" >&2; return; }
	sysctl -qw kernel.bpf_stats_enabled=1 || { STATS_WAS=; return; }
	echo "bench: ns per run of each BPF program, by the kernel ($ROUNDS rounds, the loads above)..." >&2
	for tool in biolatency biosnoop trace; do
		for i in $(seq "$ROUNDS"); do
			for ((k = 0; k < ${#TOOLS[@]}; k += 2)); do
				# shellcheck disable=SC2086
				cost_run $tool "${TOOLS[k]}" "${TOOLS[k+1]}" ${CMD[$tool]}
			done
			# shellcheck disable=SC2086
			[ -n "$BT" ] && cost_run $tool bpftrace "$BT" $BTL "${CMD[bt_$tool]}"
		done
	done
	sysctl -qw kernel.bpf_stats_enabled="$STATS_WAS"
	STATS_WAS=
}
[ "${BENCH_COST:-1}" = 1 ] && cost_collect
# ---- profiling: every CPU sampled at 99 Hz (issue 23: at most 1 % of
# one CPU) ----
# What sampling costs while it runs, over BENCH_PROFILE_SECS (10) seconds
# from 1 s after the tool said it is attached: the CPU time of every
# thread of the tool's process (/proc/PID/task/*/schedstat, ns) plus the
# time the kernel ran its BPF programs (run_time_ns of the programs the
# process holds, by progstats, counted while kernel.bpf_stats_enabled is
# 1: 5.1+; the BPF time includes the stack walks of bpf_get_stackid). Not
# counted: the perf interrupt around the program, and the printing at
# exit. Start (exec to the ready line) and peak RSS from benchrun, as
# above. barebpf samples the hardware cycles event where there is a PMU
# (the cpu-clock otherwise, as bpftrace's profile:hz always does).
PROF_SECS=${BENCH_PROFILE_SECS:-10}
PROF_STATS=
bench_profile_measure() {
	local k i
	cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
	# progstats, as the ns per run rows: each program once, however
	# many descriptors of it the process holds
	bpf_ns() { "$W/progstats" "$1" 2>/dev/null | awk '{s += $3} END {print s + 0}'; }
	# prof_run KEY PATTERN CMD...: "start_ms exit_ms rss_kib tool_ns bpf_ns"
	prof_run() {
		local key=$1 pat=$2 bp pid c0 b0; shift 2
		rm -f "$W/done" "$W/pout"
		"$W/benchrun" "$W/pout" "$pat" "@$W/done" -- "$@" >"$W/pbr" 2>&1 &
		bp=$!
		until grep -q "$pat" "$W/pout" 2>/dev/null; do
			sleep 0.05
			kill -0 $bp 2>/dev/null || { echo "bench: $* did not start: $(tail -n3 "$W/pout")" >&2; return; }
		done
		pid=$(awk '{print $1}' /proc/$bp/task/$bp/children 2>/dev/null)
		[ -n "$pid" ] || pid=$(pgrep -P $bp | head -n 1)
		sleep 1
		c0=$(cpu_ns "$pid"); b0=$(bpf_ns "$pid")
		sleep "$PROF_SECS"
		c0=$(($(cpu_ns "$pid") - c0)); b0=$(($(bpf_ns "$pid") - b0))
		echo "$c0 $b0 $((c0 + b0))" >"$W/pcpu"
		touch "$W/done"
		wait $bp
		echo "$(cat "$W/pbr") $(cat "$W/pcpu")" >>"$W/prof.$key"
	}
	PROF_STATS=$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null)
	[ -n "$PROF_STATS" ] && echo 1 >/proc/sys/kernel/bpf_stats_enabled
	echo "bench: profiling every CPU at 99 Hz ($ROUNDS rounds of ${PROF_SECS}s each tool)..." >&2
	for i in $(seq "$ROUNDS"); do
		for ((k = 0; k < ${#TOOLS[@]}; k += 2)); do
			prof_run "${TOOLS[k]}" "Sampling at" "${TOOLS[k+1]}" profile -F 99
		done
		[ -n "$BT" ] && prof_run bpftrace Tracing "$BT" $BTL "$HERE/profile.bt"
	done
	[ -n "$PROF_STATS" ] && echo "$PROF_STATS" >/proc/sys/kernel/bpf_stats_enabled
}
# the rows, in the table
bench_profile_rows() {
	local l cells
	pcol() { [ -s "$W/prof.$1" ] && awk -v f="$2" '{print $f}' "$W/prof.$1" | median || echo -; }
	pcpu() { # LABEL: "TOTAL% (tool T%, BPF B%)" of one CPU, medians
		[ -s "$W/prof.$1" ] || { echo -; return; }
		awk -v s="$PROF_SECS" -v bpf="$PROF_STATS" '{t[NR] = $4; b[NR] = $5; a[NR] = $4 + $5}
			function med(v, n, i, j, x) { for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j > 0 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
				return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
			END { d = s * 1e7; if (bpf == "") printf "%.2f%% (tool only: no kernel.bpf_stats_enabled)", med(t, NR) / d
				else printf "%.2f%% (tool %.2f%%, BPF %.2f%%)", med(a, NR) / d, med(t, NR) / d, med(b, NR) / d }' "$W/prof.$1"
	}
	cells=()
	for l in "${LABELS[@]}"; do cells+=("$(cell "$l" "$(pcol "$l" 1) ms")"); done
	row "profile: start to attached, median" "$(ratio "$(pcol bpftrace 1)" "$(pcol barebpf 1)")" \
		"exec to the ready line: \`profile -F 99\` / \`bpftrace bench/profile.bt\`" "${cells[@]}"
	cells=()
	for l in "${LABELS[@]}"; do cells+=("$(cell "$l" "$(pcol "$l" 3) KiB")"); done
	row "profile: peak RSS, median" "$(ratio "$(pcol bpftrace 3)" "$(pcol barebpf 3)")" \
		"wait4() ru_maxrss of the runs below" "${cells[@]}"
	cells=()
	for l in "${LABELS[@]}"; do cells+=("$(cell "$l" "$(pcpu "$l")")"); done
	row "profile: CPU while sampling $(nproc) CPUs at 99 Hz, % of one CPU, median" \
		"$(ratio "$(pcol bpftrace 6)" "$(pcol barebpf 6)")" \
		"\`profile -F 99\` / \`bpftrace -e 'profile:hz:99 { @[kstack, ustack] = count(); }'\` (bench/profile.bt), $ROUNDS rounds of ${PROF_SECS} s from 1 s after the ready line: the process's threads' CPU time (/proc/PID/task/*/schedstat) + its BPF programs' run_time_ns (kernel.bpf_stats_enabled=1, bench/progstats.c); not the perf interrupt around them" \
		"${cells[@]}"
}
bench_profile_measure

# ---- the table ----
col() { # KEY FIELD(1 start, 2 exit, 3 rss): median over the runs
	[ -s "$W/$1.start" ] && awk -v f="$2" '{print $f}' "$W/$1.start" | median || echo -
}
size_of() { # bytes of a binary and the shared libraries it loads
	local f=$1 s l
	s=$(stat -Lc %s "$f")
	for l in $(ldd "$f" 2>/dev/null | awk '/=> \//{print $3} /^\t\/lib/{print $1}'); do
		s=$((s + $(stat -Lc %s "$l")))
	done
	echo "$s"
}
fio_share() { # TOOL LABEL: median IOPS with the tool, % of the median without
	[ -s "$W/fio.$1.$2" ] || { echo -; return; }
	awk -v a="$(median <"$W/fio.$1.$2")" -v b="$(median <"$W/fio.$1.none")" \
		'BEGIN {printf "%.1f%% (%d IOPS)", 100 * a / b, a}'
}
pp_share() { # LABEL
	[ -s "$W/pp.$1" ] || { echo -; return; }
	awk -v b="$(median <"$W/pp.none")" -v m="$(pp_rate "$1")" -v n="$CALLS" '
		{d+=$2; l+=$3}
		END {printf "%.1f%% (%d/s), %d of %d delivered, %d lost (means)", 100*m/b, m, d/NR, n, l/NR}' "$W/pp.$1"
}
pp_rate() { [ -s "$W/pp.$1" ] && awk '{print $1}' "$W/pp.$1" | median || echo -; }

LABELS=(barebpf)
[ -n "$BASE" ] && LABELS+=("barebpf(base)")
LABELS+=(bpftrace)
cell() { # LABEL TEXT: "not installed" where bpftrace is missing
	if [ "$1" = bpftrace ] && [ -z "$BT" ]; then echo "not installed"; else echo "$2"; fi
}
row() { # NAME RATIO COMMAND CELLS...
	local name=$1 r=$2 c=$3 l
	shift 3
	printf '| %s |' "$name"
	for l in "$@"; do printf ' %s |' "$l"; done
	printf ' %s | %s |\n' "$r" "$c"
}
echo
echo "barebpf $("$B" --version 2>/dev/null | head -n1 | awk '{print $NF}') against bpftrace $([ -n "$BT" ] && "$BT" --version | awk '{print $2}'), $(date -u +%Y-%m-%d), Linux $(uname -r), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '| figure |'; for l in "${LABELS[@]}"; do printf ' %s |' "$l"; done; printf ' bpftrace / barebpf | command |\n'
printf '|---|'; for l in "${LABELS[@]}"; do printf -- '---|'; done; printf -- '---|---|\n'
start_cell() { # KEY LABEL: "MEDIAN ms (min MIN[, -v SELF ms])" of KEY's starts
	local key=$1 l=$2 s=""
	[ -s "$W/$key.start" ] || { cell "$l" -; return; }
	[ -s "$W/$key.self" ] && s=", -v $(median <"$W/$key.self") ms"
	cell "$l" "$(col "$key" 1) ms (min $(awk '{print $1}' "$W/$key.start" | minimum)$s)"
}
for tool in biolatency biosnoop trace; do
	cells=()
	for l in "${LABELS[@]}"; do cells+=("$(start_cell "$tool.$l" "$l")"); done
	row "$tool: start to attached, median" "$(ratio "$(col "$tool.bpftrace" 1)" "$(col "$tool.barebpf" 1)")" \
		"exec to the Tracing line: \`${CMD[$tool]}\` / \`bpftrace bench/$(basename "${CMD[bt_$tool]}")\`" "${cells[@]}"
done
cells=()
for l in "${LABELS[@]}"; do cells+=("$(start_cell "floor.$l" "$l")"); done
row "floor: fork, exec and exit, median" "$(ratio "$(col floor.bpftrace 1)" "$(col floor.barebpf 1)")" \
	"\`barebpf --version\` / \`bpftrace --version\`: the part of every start above that is not the tool's" "${cells[@]}"
for tool in biolatency biosnoop trace; do
	cells=()
	for l in "${LABELS[@]}"; do cells+=("$(cell "$l" "$(col "$tool.$l" 2) ms")"); done
	row "$tool: exit (SIGINT to exit), median" "$(ratio "$(col "$tool.bpftrace" 2)" "$(col "$tool.barebpf" 2)")" \
		"SIGINT 1 s after the Tracing line, idle; again each second until it exits" "${cells[@]}"
done
for tool in biolatency biosnoop trace; do
	cells=()
	for l in "${LABELS[@]}"; do cells+=("$(cell "$l" "$(col "$tool.$l" 3) KiB")"); done
	row "$tool: peak RSS, median" "$(ratio "$(col "$tool.bpftrace" 3)" "$(col "$tool.barebpf" 3)")" \
		"wait4() ru_maxrss of the runs above" "${cells[@]}"
done
cells=("$(size_of "$B") B")
[ -n "$BASE" ] && cells+=("$(size_of "$BASE") B")
cells+=("$(cell bpftrace "$([ -n "$BT" ] && size_of "$BT") B")")
row "binary + shared libraries" "$([ -n "$BT" ] && ratio "$(size_of "$BT")" "$(size_of "$B")")" \
	"stat of the binary and of what \`ldd\` lists" "${cells[@]}"
for tool in biolatency biosnoop; do
	cells=()
	for l in "${LABELS[@]}"; do cells+=("$(cell "$l" "$(fio_share $tool "$l")")"); done
	row "$tool: IOPS kept (untraced: $(median <"$W/fio.$tool.none"))" "-" \
		"\`$FIO\` (loop device over tmpfs), $ROUNDS rounds, medians" "${cells[@]}"
done
cells=()
for l in "${LABELS[@]}"; do cells+=("$(cell "$l" "$(pp_share "$l")")"); done
row "getppid() loop: traced rate (untraced: $(median <"$W/pp.none")/s)" \
	"$(ratio "$(pp_rate barebpf)" "$(pp_rate bpftrace)") (barebpf / bpftrace)" \
	"\`bench/getppid $CALLS\` under \`trace -j t:syscalls:sys_enter_getppid\` / \`bpftrace bench/getppid.bt\`, output on a pipe, $ROUNDS rounds" \
	"${cells[@]}"
# the ns per run rows: per program, all rounds' run_time_ns over all their
# runs; "per event" adds up the programs that run for every event (run at
# least a tenth as often as the busiest one: not BEGIN, END, or a program
# of a rarer path)
cost_cell() { # TOOL LABEL: "name N ns, ...; per event N ns"
	[ -s "$W/cost.$1.$2" ] || { echo -; return; }
	awk '!($1 in t) {o[n++] = $1} {t[$1] += $2; c[$1] += $3}
		END {
			for (i = 0; i < n; i++) if (c[o[i]] > m) m = c[o[i]]
			for (i = 0; i < n; i++) {
				k = o[i]
				if (!c[k]) { s = s sep k " not run"; sep = ", "; continue }
				s = s sep sprintf("%s %.0f ns", k, t[k] / c[k]); sep = ", "
				if (c[k] * 10 >= m) e += t[k] / c[k]
			}
			printf "%s; per event %.0f ns", s, e
		}' "$W/cost.$1.$2"
}
cost_event() { # TOOL LABEL: the per event figure alone
	cost_cell "$1" "$2" | sed -n 's/.*; per event \([0-9]*\) ns$/\1/p'
}
cost_rows() {
	local tool l cells load
	for tool in biolatency biosnoop trace; do
		[ -n "$(ls "$W"/cost.$tool.* 2>/dev/null)" ] || continue
		cells=()
		for l in "${LABELS[@]}"; do cells+=("$(cell "$l" "$(cost_cell $tool "$l")")"); done
		load="the fio runs above"
		[ $tool = trace ] && load="\`bench/getppid $CALLS\`"
		row "$tool: ns per run of each BPF program (kernel.bpf_stats_enabled)" \
			"$(ratio "$(cost_event $tool bpftrace)" "$(cost_event $tool barebpf)")" \
			"run_time_ns / run_cnt of the programs the tool's process holds, under $load, $ROUNDS rounds" "${cells[@]}"
	done
}
cost_rows
bench_profile_rows

# ---- uprobes: the cost of one call of a probed user function ----
# tests/tools/ucalls.c `loop N` calls bb_ufunc N times and prints ns/call:
# untraced, under `barebpf funccount BIN:bb_ufunc` and under bpftrace's
# `uprobe:BIN:bb_ufunc { @ = count(); }`, ROUNDS alternating rounds.
uprobe_row() {
	local n=${BENCH_UCALLS:-200000} i k l pid cells=() un
	cc -O1 -fno-inline -o "$W/ucalls" "$HERE/../tests/tools/ucalls.c" ||
		{ echo "bench: cannot build tests/tools/ucalls.c" >&2; return; }
	echo "bench: uprobe cost ($ROUNDS rounds of $n calls: untraced, then each tool)..." >&2
	ucall_ns() { "$W/ucalls" loop "$n" | awk '{print $2}'; }
	for i in $(seq "$ROUNDS"); do
		ucall_ns >>"$W/up.none"
		for ((k = 0; k < ${#TOOLS[@]}; k += 2)); do
			ready "$W/uout" "${TOOLS[k+1]}" funccount "$W/ucalls:bb_ufunc" || continue
			ucall_ns >>"$W/up.${TOOLS[k]}"
			touch "$W/done"
			wait $pid
		done
		if [ -n "$BT" ] && ready "$W/uout" "$BT" $BTL -e \
			"BEGIN { printf(\"$BT_READY\\n\"); } uprobe:$W/ucalls:bb_ufunc { @ = count(); }"; then
			ucall_ns >>"$W/up.bpftrace"
			touch "$W/done"
			wait $pid
		fi
	done
	un=$(median <"$W/up.none")
	for l in "${LABELS[@]}"; do
		if [ -s "$W/up.$l" ]; then
			cells+=("$(median <"$W/up.$l" | awk -v u="$un" '{printf "%.0f ns/call (+%.0f)", $1, $1 - u}')")
		else
			cells+=("$(cell "$l" -)")
		fi
	done
	row "uprobe: a probed call (untraced: $un ns)" \
		"$(ratio "$(median <"$W/up.bpftrace" 2>/dev/null)" "$(median <"$W/up.barebpf")")" \
		"\`tests/tools/ucalls loop $n\` under \`funccount BIN:bb_ufunc\` / \`bpftrace -e 'uprobe:BIN:bb_ufunc { @ = count(); }'\`, $ROUNDS rounds, medians" \
		"${cells[@]}"
}
uprobe_row
# ---- runqlat, syscount, killsnoop, oomkill, bitesize, vfsstat against
# bpftrace's (issues 30, 31): bench/tools.sh, rows of the same table ----
[ "${BENCH_TOOLS:-1}" = 1 ] && "$HERE/tools.sh" "$B" $BASE
