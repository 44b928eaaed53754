#!/bin/bash
# make bench, the rows of runqlat, syscount, killsnoop, oomkill, bitesize,
# vfsstat, tcplife, tcpretrans and tcpconnect against bpftrace's tools of
# those names (issues 29-31):
# start to attached, and the BPF cost per event by the kernel's own
# accounting (kernel.bpf_stats_enabled, bench/progstats), each under a
# load that makes its events; killsnoop, an event tool, also the rate of
# kill() calls it keeps up with without loss. The bpftrace scripts are
# bench/NAME.bt (Debian's bpftrace 0.17 ships none of its tools); where
# bpftrace's tool needs kprobes and the host has none, its cells say so.
# bpftrace's tcplife.bt and tcpretrans.bt are kprobes; bench/tcplife.bt
# and bench/tcpretrans.bt do what they do on the tracepoints barebpf's
# tools use where the kernel has them (sock:inet_sock_set_state,
# tcp:tcp_retransmit_skb), so that both run the same probe here.
#
#   bench/tools.sh BAREBPF [BASE]      (bench/bench.sh runs it; root)
#
# Prints table rows (| figure | barebpf | [base |] bpftrace | ratio |
# command |) on stdout, progress on stderr. Environment as bench.sh's:
# BENCH_STARTS (7), BENCH_ROUNDS (3); BENCH_KILLS (200000) kill() calls
# per streaming run, BENCH_SWITCHES (100000) round trips of pingpong,
# BENCH_OOMS (3) OOM kills per round (in a memory cgroup of 32 MiB).
set -u
export LC_ALL=C
B=$(readlink -f "$1")
BASE=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
STARTS=${BENCH_STARTS:-7}
ROUNDS=${BENCH_ROUNDS:-3}
KILLS=${BENCH_KILLS:-200000}
SWITCHES=${BENCH_SWITCHES:-100000}
OOMS=${BENCH_OOMS:-3}
BT=$(command -v bpftrace || true)
READY=Ctrl # every tool's ready line: "... Hit Ctrl-C to end."

die() { echo "bench/tools.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root"
W=$(mktemp -d /dev/shm/bbtools.XXXXXX)
LOOP='' STATS_WAS='' CG='' CGPROCS=''
cleanup() {
	[ -n "$STATS_WAS" ] && sysctl -qw kernel.bpf_stats_enabled="$STATS_WAS"
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	[ -n "$CG" ] && rmdir "$CG" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
for c in benchrun getppid progstats pingpong; do
	cc -O2 -o "$W/$c" "$HERE/$c.c" || die "cannot build bench/$c.c"
done
cc -O2 -o "$W/tcpload" "$HERE/tcpload.c" || die "cannot build bench/tcpload.c"
TOOLS=(barebpf "$B")
[ -n "$BASE" ] && TOOLS+=("barebpf(base)" "$BASE")
LABELS=(barebpf)
[ -n "$BASE" ] && LABELS+=("barebpf(base)")
LABELS+=(bpftrace)
NOKPROBES=
[ -e /sys/kernel/tracing/kprobe_events ] || [ -e /sys/kernel/debug/tracing/kprobe_events ] ||
	NOKPROBES=1

median() { sort -g | awk '{v[NR]=$1} END {if (NR) print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2); else print "-"}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a+0 > 0 && b+0 > 0) printf "%.3g", a/b; else print "-"}'; }
row() { # NAME RATIO COMMAND CELLS...
	local name=$1 r=$2 c=$3 l
	shift 3
	printf '| %s |' "$name"
	for l in "$@"; do printf ' %s |' "$l"; done
	printf ' %s | %s |\n' "$r" "$c"
}

# the tools: barebpf's command, bpftrace's script (or why not here), load
declare -A CMD BTS WHY LOAD
CMD[runqlat]="runqlat"; BTS[runqlat]=runqlat.bt
CMD[syscount]="syscount"; BTS[syscount]=syscount.bt
CMD[killsnoop]="killsnoop"; BTS[killsnoop]=killsnoop.bt
CMD[oomkill]="oomkill"; WHY[oomkill]="its oomkill.bt is a kprobe (oom_kill_process)"
CMD[bitesize]="bitesize"; BTS[bitesize]=bitesize.bt
CMD[vfsstat]="vfsstat"; WHY[vfsstat]="its vfsstat.bt is kprobes (vfs_read...)"
CMD[tcplife]="tcplife"; BTS[tcplife]=tcplife.bt
CMD[tcpretrans]="tcpretrans"; BTS[tcpretrans]=tcpretrans.bt
CMD[tcpconnect]="tcpconnect"; WHY[tcpconnect]="tcpconnect and its tcpconnect.bt are kprobes (tcp_v4_connect)"
LOAD[runqlat]="\`bench/pingpong $SWITCHES\` (2 wakeups and switches a round trip)"
LOAD[syscount]="\`bench/getppid 1000000\`"
LOAD[killsnoop]="\`bench/getppid $KILLS PIDFILE kill\` (kill(self, 0))"
LOAD[oomkill]="$OOMS OOM kills: \`dd if=/dev/zero of=/dev/null bs=300M count=1\` in a memory cgroup of 32 MiB"
LOAD[bitesize]="fio randread 4k, 3 s, on a loop device over tmpfs"
LOAD[vfsstat]="\`dd if=/dev/zero of=/dev/null bs=1 count=200000\`"
LOAD[tcplife]="\`bench/tcpload conn 5000\` (loopback sessions, 100 bytes each way)"
LOAD[tcpretrans]="\`bench/tcpload retrans 200\` (about 800 retransmits in 3 s: a network namespace whose receiver drops every packet)"
LOAD[tcpconnect]="\`bench/tcpload conn 5000\`"
NAMES=(runqlat syscount killsnoop oomkill bitesize vfsstat tcplife tcpretrans tcpconnect)
KPROBE_ONLY=" vfsstat tcpconnect " # both tools are kprobes
# BENCH_NAMES: some of the rows only, e.g. "tcplife tcpretrans"
[ -n "${BENCH_NAMES:-}" ] && read -ra NAMES <<<"$BENCH_NAMES"

if [ -n "$NOKPROBES" ]; then
	WHY[vfsstat]="no kprobes on this kernel (vfsstat and vfsstat.bt are kprobes)"
	WHY[tcpconnect]="no kprobes on this kernel (${WHY[tcpconnect]})"
	[ -n "$BT" ] && [ -z "${BTS[oomkill]:-}" ] && WHY[oomkill]="no kprobes on this kernel: ${WHY[oomkill]}"
fi
runnable() { # NAME LABEL: 0 if LABEL's tool can run here
	[[ "$KPROBE_ONLY" == *" $1 "* ]] && [ -n "$NOKPROBES" ] && return 1
	[ "$2" != bpftrace ] && return 0
	[ -n "$BT" ] && [ -n "${BTS[$1]:-}" ]
}
cmd_of() { # NAME LABEL BIN: the command line
	if [ "$2" = bpftrace ]; then echo "$BT -B line $HERE/${BTS[$1]}"; else echo "$3 ${CMD[$1]}"; fi
}

# ---- the loads ----
fio_load() { fio --name=r --filename="$LOOP" --rw=randread --bs=4k --direct=1 \
	--ioengine=psync --runtime=3 --time_based --output-format=terse >/dev/null 2>&1; }
oom_load() { # in the memory cgroup CG: each dd (a 300 MiB buffer) is killed at 32 MiB
	local i
	for i in $(seq "$OOMS"); do # (a subshell: no "Killed" from this one)
		(sh -c "echo \$\$ >$CG/$CGPROCS && exec dd if=/dev/zero of=/dev/null bs=300M count=1" >/dev/null 2>&1)
	done 2>/dev/null
}
load() { # NAME
	case $1 in
	runqlat) "$W/pingpong" "$SWITCHES" >/dev/null ;;
	syscount) "$W/getppid" 1000000 >/dev/null ;;
	killsnoop) "$W/getppid" "$KILLS" "$W/lpid" kill >/dev/null ;;
	oomkill) oom_load ;;
	bitesize) fio_load ;;
	vfsstat) dd if=/dev/zero of=/dev/null bs=1 count=200000 status=none ;;
	tcplife | tcpconnect) "$W/tcpload" conn 5000 >/dev/null ;;
	tcpretrans) "$W/tcpload" retrans 200 >/dev/null ;;
	esac
}
setup_loads() {
	truncate -s 64M "$W/disk.img"
	LOOP=$(losetup -f --show "$W/disk.img") || die "cannot set up a loop device"
	dd if=/dev/zero of="$LOOP" bs=1M count=64 oflag=direct status=none
	if [ -d /sys/fs/cgroup/memory ]; then # v1
		CG=/sys/fs/cgroup/memory/bbbench_oom.$$ CGPROCS=tasks
		mkdir "$CG" && echo 32M >"$CG/memory.limit_in_bytes" || CG=
	elif [ -e /sys/fs/cgroup/cgroup.controllers ]; then
		CG=/sys/fs/cgroup/bbbench_oom.$$ CGPROCS=cgroup.procs
		mkdir "$CG" && echo 32M >"$CG/memory.max" || CG=
		[ -n "$CG" ] && echo 0 >"$CG/memory.swap.max" 2>/dev/null
	fi
	[ -n "$CG" ] || { echo "bench/tools.sh: no memory cgroup: no OOM load" >&2; OOMS=0; }
}
setup_loads

# ---- start to attached ----
echo "bench/tools.sh: start times ($STARTS starts of each barebpf tool, 3 of bpftrace's)..." >&2
for i in $(seq "$STARTS"); do
	for n in "${NAMES[@]}"; do
		for ((k = 0; k < ${#TOOLS[@]}; k += 2)); do
			runnable "$n" x || continue
			# shellcheck disable=SC2046
			"$W/benchrun" "$W/out" "$READY" 1000 -- $(cmd_of "$n" x "${TOOLS[k+1]}") \
				>>"$W/start.$n.${TOOLS[k]}" 2>/dev/null
		done
		if [ "$i" -le 3 ] && runnable "$n" bpftrace; then
			# shellcheck disable=SC2046
			"$W/benchrun" "$W/out" "$READY" 1000 -- $(cmd_of "$n" bpftrace) \
				>>"$W/start.$n.bpftrace" 2>/dev/null
		fi
	done
done

# ---- ns per event: the programs the tool's process holds, under load ----
ready() { # OUT CMD...: start it (pid in $pid), wait for its ready line
	local out=$1; shift
	rm -f "$W/done" "$out"
	"$W/benchrun" "$out" "$READY" "@$W/done" -- "$@" >"$W/br" 2>&1 &
	pid=$!
	until grep -q "$READY" "$out" 2>/dev/null; do
		sleep 0.05
		kill -0 $pid 2>/dev/null || { echo "bench/tools.sh: $* did not start: $(tail -n2 "$out")" >&2; return 1; }
	done
	[[ "$1" == "$BT" ]] && sleep 1
	return 0
}
cost_run() { # NAME LABEL CMD...
	local n=$1 label=$2 child; shift 2
	ready "$W/cout" "$@" || return
	child=$(pgrep -P "$pid" | head -n1)
	load "$n"
	[ -n "$child" ] && "$W/progstats" "$child" | awk '{print $2, $3, $4}' >>"$W/cost.$n.$label"
	touch "$W/done"
	wait "$pid"
}
if STATS_WAS=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null) && sysctl -qw kernel.bpf_stats_enabled=1; then
	echo "bench/tools.sh: ns per run of each BPF program ($ROUNDS rounds, each tool under its load)..." >&2
	for i in $(seq "$ROUNDS"); do
		for n in "${NAMES[@]}"; do
			for ((k = 0; k < ${#TOOLS[@]}; k += 2)); do
				# shellcheck disable=SC2046
				runnable "$n" x && cost_run "$n" "${TOOLS[k]}" $(cmd_of "$n" x "${TOOLS[k+1]}")
			done
			# shellcheck disable=SC2046
			runnable "$n" bpftrace && cost_run "$n" bpftrace $(cmd_of "$n" bpftrace)
		done
	done
	sysctl -qw kernel.bpf_stats_enabled="$STATS_WAS"
else
	echo "bench/tools.sh: no kernel.bpf_stats_enabled (5.1+): no ns per run rows" >&2
fi
STATS_WAS=

# ---- killsnoop: kill() calls at full speed, delivered and lost ----
stream() { # OUT CMD...: "rate delivered lost"
	local out=$1 rate lpid; shift
	ready "$out" "$@" || return
	rate=$("$W/getppid" "$KILLS" "$W/lpid" kill)
	lpid=$(cat "$W/lpid")
	touch "$W/done"
	wait "$pid"
	echo "$rate $(awk -v p="$lpid" '$2 == p || $1 == p' "$out" | grep -c .) $(sed -n \
		-e 's/.*[^0-9]\([0-9][0-9]*\) event(s) lost.*/\1/p' -e 's/.* \([0-9][0-9]*\) lost.*/\1/p' \
		-e 's/^Lost \([0-9]*\) events.*/\1/p' "$out" | awk '{s+=$1} END {print s+0}')"
}
[[ " ${NAMES[*]} " == *" killsnoop "* ]] || KS_ROUNDS=0
echo "bench/tools.sh: killsnoop streaming (${KS_ROUNDS:-$ROUNDS} rounds of $KILLS kill() calls)..." >&2
for i in $(seq "${KS_ROUNDS:-$ROUNDS}"); do
	"$W/getppid" "$KILLS" "$W/lpid" kill >>"$W/ks.none"
	for ((k = 0; k < ${#TOOLS[@]}; k += 2)); do
		stream "$W/sout" "${TOOLS[k+1]}" killsnoop >>"$W/ks.${TOOLS[k]}"
	done
	[ -n "$BT" ] && stream "$W/sout" "$BT" -B line "$HERE/killsnoop.bt" >>"$W/ks.bpftrace"
done

# ---- the rows ----
cell_of() { # NAME LABEL TEXT
	if [ "$2" = bpftrace ] && [ -z "$BT" ]; then echo "not installed"
	elif ! runnable "$1" "$2"; then echo "not here: ${WHY[$1]:-no kprobes}"
	else echo "$3"; fi
}
scol() { [ -s "$W/start.$1" ] && awk -v f="$2" '{print $f}' "$W/start.$1" | median || echo -; }
cost_cell() { # NAME LABEL (as bench.sh's)
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
cost_event() { cost_cell "$1" "$2" | sed -n 's/.*; per event \([0-9]*\) ns$/\1/p'; }
bt_text() { if [ -n "${BTS[$1]:-}" ]; then echo "\`bpftrace bench/${BTS[$1]}\`"; else echo "bpftrace's $1.bt"; fi; }
for n in "${NAMES[@]}"; do
	cells=()
	for l in "${LABELS[@]}"; do cells+=("$(cell_of "$n" "$l" "$(scol "$n.$l" 1) ms")"); done
	row "$n: start to attached, median" "$(ratio "$(scol "$n.bpftrace" 1)" "$(scol "$n.barebpf" 1)")" \
		"exec to the ready line: \`${CMD[$n]}\` / $(bt_text "$n"), $STARTS starts (bpftrace 3)" "${cells[@]}"
done
for n in "${NAMES[@]}"; do
	cells=()
	for l in "${LABELS[@]}"; do cells+=("$(cell_of "$n" "$l" "$(cost_cell "$n" "$l")")"); done
	row "$n: ns per run of each BPF program (kernel.bpf_stats_enabled)" \
		"$(ratio "$(cost_event "$n" bpftrace)" "$(cost_event "$n" barebpf)")" \
		"run_time_ns / run_cnt of the programs the tool's process holds (\`${CMD[$n]}\` / $(bt_text "$n")), under ${LOAD[$n]}, $ROUNDS rounds" "${cells[@]}"
done
[ "${KS_ROUNDS:-$ROUNDS}" = 0 ] && exit 0
cells=()
un=$(median <"$W/ks.none")
for l in "${LABELS[@]}"; do
	if [ -s "$W/ks.$l" ]; then
		cells+=("$(awk -v b="$un" -v n="$KILLS" -v m="$(awk '{print $1}' "$W/ks.$l" | median)" \
			'{d+=$2; x+=$3} END {printf "%.1f%% (%d/s), %d of %d printed, %d lost (means)", 100*m/b, m, d/NR, n, x/NR}' "$W/ks.$l")")
	else
		cells+=("$(cell_of killsnoop "$l" -)")
	fi
done
row "killsnoop: kill(self, 0) loop traced (untraced: $un/s)" "-" \
	"\`bench/getppid $KILLS PIDFILE kill\` under \`killsnoop\` / \`bpftrace bench/killsnoop.bt\`, output on a pipe, $ROUNDS rounds" "${cells[@]}"
