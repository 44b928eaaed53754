#!/usr/bin/env bash
# Whole-system tests of barebpf on real kernels in QEMU (software emulation).
#
#   vm-tests/run.sh BAREBPF [BAREBPF...] [KERNEL...]
#
# BAREBPF: a barebpf binary, x86_64, aarch64, armv7 or riscv64 (read from
# its ELF header); give one of each to test them all. KERNEL: a label of the
# table below (default: every kernel of the architectures given).
#
#   4.15 5.10 6.1 6.12 7.x               x86_64 (qemu-system-x86_64)
#   4.19 4.14 4.9                        x86_64, a selection of the cases
#                                        (CASE_SETS below)
#   armv7-4.19                           armv7, from ../shared/kernels too
#   arm64-4.15 arm64-5.10 arm64-6.1      aarch64 (qemu-system-aarch64 -M virt)
#   armv7-5.10 armv7-6.1 armv7-6.12      armv7 (qemu-system-arm -M virt)
#   riscv64-6.12 riscv64-7.x             riscv64 (qemu-system-riscv64 -M virt)
#
# armv7 and riscv64 run a few cases per tool (CASE_SETS), not the suite.
#
# Per kernel: build an initramfs (busybox-static of the kernel's
# architecture, BAREBPF and its tool symlinks, guest/ and cases/, the
# null_blk modules), boot it once, run every case in that boot and read one
# PASS/FAIL/SKIP line per case from the serial console. Two kernels boot at
# a time. Ends with "N passed, N failed, N skipped"; exits non-zero on any
# FAIL. Kernels are fetched into vm-tests/cache/ (see README.md).
#
# Environment:
#   BAREBPF_KERNEL_415  the x86_64 4.15 kernel: its folder or its bzImage
#                       (default: <repo>/../shared/kernels/4.15)
#   BAREBPF_KERNEL_415_ARM64  the arm64 4.15 kernel: its folder or Image.gz
#                       (default: <repo>/../shared/kernels/4.15-arm64)
#   BAREBPF_KERNEL_419, BAREBPF_KERNEL_414, BAREBPF_KERNEL_49  the same for
#                       4.19, 4.14 and 4.9 (default: <repo>/../shared/kernels/4.19 ...)
#   BAREBPF_KERNEL_419_ARMV7  the armv7 4.19 kernel: its folder or zImage
#                       (default: <repo>/../shared/kernels/4.19-armv7)
#   VMTEST_SUITE        the folder of cases: cases (default), bench for
#                       the cost benchmarks (make vm-bench: figures, no
#                       thresholds), or stress for the kernel-crash
#                       reproducers (README.md, "Known problems")
#   VMTEST_CASES        only the cases whose names match this grep -E regex
#   VMTEST_JOBS         kernels booted at once (default: one per core, at
#                       least 2; each guest runs on one host thread)
#   VMTEST_SMP          CPUs of each guest (default 2)
#   VMTEST_TIMEOUT      seconds one boot may take, cases included (default:
#                       scaled with the number of cases and the emulated
#                       architecture, see boot_timeout; a hung case is
#                       stopped sooner)
#   VMTEST_CASE_TIMEOUT seconds one case may take (default 90)
#   VMTEST_MIRROR       Debian mirror for the kernels (default: the machine's)
#   VMTEST_OFFLINE=1    use only kernels already in the cache
#   VMTEST_ALLOW_MISSING=1  a kernel that cannot be had SKIPs instead of
#                       FAILing (not with CI=true)
#   VMTEST_CACHE        where kernels and console logs go (default vm-tests/cache)
#   VMTEST_VERBOSE=1    show every case's diagnostics, not only a FAIL's
#   VMTEST_OOPS_QUIET   seconds of console silence after an oops before a
#                       guest is taken for hung and stopped (default 120)
#   VMTEST_TCG          QEMU's -accel value (default tcg,thread=single: a
#                       guest's vCPUs take turns on one host thread; tcg
#                       gives each its own thread, see README.md)
#   VMTEST_SLOW=1       run the cases that take minutes per kernel on every
#                       kernel, not only where they test something different
#                       (see need_slow in guest/lib.sh)
set -u
set -o pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(git -C "$HERE" rev-parse --show-toplevel 2>/dev/null || dirname "$HERE")
CACHE=${VMTEST_CACHE:-$HERE/cache}
LOGS=$CACHE/logs

# The test disk: null_blk completes every request after NSEC ns. 17 ms is
# in the 16384 -> 32767 usecs bucket with 15 ms to spare: a measured latency
# can only be longer than the injected one, and under TCG on a busy 2-core
# host it was seen 4 ms longer (8.2 ms for 4.2 ms).
NSEC=17000000
BUCKET_LO=16384
BUCKET_HI=32767
N=100
CASE_TIMEOUT=${VMTEST_CASE_TIMEOUT:-90}
# One host thread per guest, its 2 vCPUs taking turns: with two guests
# booted at a time on 2 cores, multi-threaded TCG only adds contention, and
# under it guests crashed 4 times in kretprobe returns to address 0 (4.15,
# 6.1, 7.2, once with plain tracefs kretprobes): README.md, "Known problems".
TCG=${VMTEST_TCG:-tcg,thread=single}

usage() { echo "usage: $0 BAREBPF [BAREBPF...] [$(kernel_labels | tr '\n' '|' | sed 's/|$//') ...]" >&2; exit 2; }

# label       arch     from             cases
# Booted in this order, the longest suites first (those that run
# funclatency-glob, then the newest kernels), so that two boots at a time
# end close together. "cases" names a set of CASE_SETS; without it a kernel
# runs every case.
KERNEL_TABLE='
arm64-6.1     aarch64  debian bookworm
6.1           x86_64   debian bookworm  nosched
7.x           x86_64   debian sid
4.15          x86_64   shared 4.15
5.10          x86_64   debian bullseye
riscv64-7.x   riscv64  debian sid       riscv7
6.12          x86_64   debian trixie    nofs
armv7-6.12    armv7    debian trixie    arch
4.19          x86_64   shared 4.19      old419
4.14          x86_64   shared 4.14      old
armv7-4.19    armv7    shared 4.19-armv7 arm419
riscv64-6.12  riscv64  debian trixie    riscv612
4.9           x86_64   shared 4.9       oldest
armv7-6.1     armv7    debian bookworm  armold
armv7-5.10    armv7    debian bullseye  armold
arm64-5.10    aarch64  debian bullseye  armold
arm64-4.15    aarch64  shared 4.15-arm64 armold
'
kernel_labels() { awk 'NF { print $1 }' <<<"$KERNEL_TABLE"; }
kernel_field() { awk -v l="$1" -v f="$2" '$1 == l { print $f }' <<<"$KERNEL_TABLE"; }

# Sets of cases (a grep -E regex over the case names) for the kernels that
# do not run the whole suite: the old ones below 4.15 run every tool at
# least once and the checks of issue 21, so that CI stays under its time
# (vm-tests/README.md, "Kernels"); oldest (4.9) runs old-refuses instead
# of the cases of trace and breakdown, which need map values as helper
# memory (4.11); old419 adds qenter-frozen, for 4.19 enters the queue
# before block_bio_queue fires, unlike 4.15 and 5.2+: qenter -D names the
# disk there through generic_make_request's bio (vm-tests/README.md; the
# three qenter cases failed there before it did, and pass).
# VMTEST_CASES narrows a set further.
# armv7 and riscv64 (sets arch, arm419, riscv612, riscv7) run a few
# cases per tool, among them the proof of the architecture (biosnoop-text,
# freeze-storm). Their pt_regs, 4-byte
# kernel pointers and syscall names are what differs; the rest of the
# suite tests the tools themselves, on the main kernels. Emulating another
# architecture costs 2-4 times the time per case, and the whole CI stays
# under 60 minutes (README.md: the boots' wall times).
ARCH_CASES='^(uprobe|run-tailframe|runqlat-counts|cpudist-slices|killsnoop-signals|profile-folded|funccount-syscalls|biolatency-text|biosnoop-text|breakdown-freeze|execsnoop-text|features-text|freeze-storm|freeze-text|funccount-kprobe|funclatency-text|opensnoop-text|qenter-frozen|run-syscalls|slowbio-freeze|trace-args-entry|trace-args-open|trace-kprobe|trace-tracepoint|vfsstat-text|runqlen-spin|syscount-exact|hardirqs-count|softirqs-count|oomkill-memcg|bitesize-text|biotop-text|drsnoop-memcg|cachestat-reread|fsslower-ext4|fsdist-ext4|exporter-fs|exitsnoop-codes|exporter-sched|trace-field|trace-cpu)$'
# riscv64 6.12 takes no kprobe on a function's ftrace patch site: kprobes
# move past it, kretprobes cannot (the tools that need one say so), so it
# runs the selection's cases without kretprobes.
RISCV612_CASES='^(uprobe|run-tailframe|runqlat-counts|cpudist-slices|killsnoop-signals|profile-folded|funccount-syscalls|biolatency-text|biosnoop-text|execsnoop-text|features-text|freeze-storm|funccount-kprobe|opensnoop-text|trace-args-entry|trace-kprobe|trace-tracepoint|vfsstat-text|syscount-exact|hardirqs-count|softirqs-count|oomkill-memcg|exitsnoop-codes|runqlen-spin|trace-cpu)$'
# riscv64 7.x: the selection. Its trace cases run since trace reads the
# CPU only for $cpu: 7.x inlines that helper with a JIT-only instruction,
# and Debian's riscv64 has bpf_jit_enable 0 ("program requires BPF JIT
# compiler" for every trace program until then). breakdown-freeze runs
# there and on armv7 6.12 again since breakdown's tail-calling programs
# take the whole BPF stack (they crashed those kernels before: a return
# to address 0; vm-tests/README.md, "Known problems", and the stress
# suite's bdcrash-* cases).
RISCV7_CASES=$ARCH_CASES
# arm64 4.15 and 5.10, armv7 5.10 and 6.1: the selection's cases of the
# tools before issues 29-31 (each tool once, the architecture's proof),
# which every one of them passed; the new families run on arm64 6.1 and
# armv7 4.19 and 6.12. With the new families' cases in every other boot,
# the whole run took 4,512 s on 2 cores before (2026-11-29): this
# keeps CI under 75 (vm-tests/README.md, "Kernels").
ARMOLD_CASES='^(uprobe|profile-folded|funccount-syscalls|biolatency-text|biosnoop-text|breakdown-freeze|execsnoop-text|features-text|freeze-storm|freeze-text|funccount-kprobe|funclatency-text|opensnoop-text|qenter-frozen|run-syscalls|slowbio-freeze|trace-args-entry|trace-args-open|trace-kprobe|trace-tracepoint|vfsstat-text|runqlen-spin|offsets-pahole)$'
# The network tools' cases (issue 29) run on the kernels that issue names:
# 4.9, 4.14, 4.15, 4.19, 5.10, 6.1, 7.x, arm64 (6.1) and armv7; not on the
# other arm64 ones (armold) nor riscv64. armv7 6.12 (set arch) also runs
# offsets-pahole: its discoveries against pahole on Debian's -dbg vmlinux
# (vm-tests/offsets/armv7-6.12.txt; armold runs it on armv7 5.10 and 6.1).
NET_CASES='tcpconnect-lo|tcpaccept-lo|sockoff-btf|tcpstates-lo|tcplife-bytes|tcpretrans-count|tcpdrop-lo|exporter-tcp'
ARCH_NET_CASES="${ARCH_CASES%')$'}|$NET_CASES|offsets-pahole)\$"
# armv7 4.19 (../shared/kernels/4.19-armv7: multi_v7 for QEMU's virt
# board, everything built in): every tool once, kept to about 4 minutes
# under TCG. Its ARM JIT cannot compile atomic adds (every counting
# program runs in the interpreter), its syscalls have no pt_regs wrappers
# (sys_*, the arguments in the registers), and like 4.19 on x86_64 it
# enters the queue before block_bio_queue (qenter-frozen).
ARM419_CASES='^(uprobe|profile-folded|biosnoop-text|biolatency-text|breakdown-freeze|execsnoop-text|exporter-latency|features-text|freeze-storm|funccount-kprobe|funccount-syscalls|funclatency-text|opensnoop-text|qenter-frozen|run-object|run-syscalls|slowbio-freeze|trace-args-entry|trace-kprobe|trace-tracepoint|vfsstat-text|hygiene-sigint|runqlen-spin|fsslower-ext4|fsdist-ext4|tcpconnect-lo|tcpaccept-lo|sockoff-btf|tcpstates-lo|tcplife-bytes|tcpretrans-count|tcpdrop-lo|exporter-fs|exporter-tcp|offsets-pahole)$'
# The cases of the scheduler and system tools (issue 30) and of the file
# system, page cache and memory tools (issue 31) run on the kernels those
# issues name (4.9, 4.14, 4.15, 5.10, 6.12 or 6.1, 7.x, one arm64, armv7),
# not on every full-suite kernel: a set that starts with "!" runs every
# case but those it matches. runqlen-spin runs everywhere (its offset is
# checked against each kernel's own BTF where it has one). The whole CI
# stays under 75 minutes (README.md).
SCHED_CASES='runqlat-counts|cpudist-slices|killsnoop-signals|exitsnoop-codes|exporter-sched|syscount-exact|hardirqs-count|softirqs-count|oomkill-memcg'
FS_CASES='bitesize-text|biotop-text|cachestat-reread|drsnoop-memcg|fsslower-ext4|fsdist-ext4|exporter-fs'
CASE_SETS="
nosched   !^($SCHED_CASES)$
nofs      !^($FS_CASES|$NET_CASES)$
old     ^(uprobe|runqlat-counts|cpudist-slices|killsnoop-signals|profile-folded|run-perf|biosnoop-text|biolatency-text|execsnoop-text|freeze-storm|freeze-loop|funclatency-text|features-text|run-object|trace-kprobe|trace-tracepoint|qenter-idle|qenter-reads|qenter-split|slowbio-freeze|slowbio-nested|exporter-freeze|exporter-latency|opensnoop-text|funccount-kprobe|vfsstat-text|breakdown-freeze|breakdown-nesting|hygiene-sigint|detach-background|runqlen-spin|syscount-exact|hardirqs-count|softirqs-count|oomkill-memcg|bitesize-text|biotop-text|drsnoop-memcg|cachestat-reread|fsslower-ext4|fsdist-ext4|tcpconnect-lo|tcpaccept-lo|sockoff-btf|exitsnoop-codes|exporter-sched|tcpstates-lo|tcplife-bytes|tcpretrans-count|tcpdrop-lo|exporter-fs|exporter-tcp|offsets-pahole)$
old419  ^(uprobe|runqlat-counts|cpudist-slices|killsnoop-signals|profile-folded|run-perf|biosnoop-text|biolatency-text|execsnoop-text|freeze-storm|freeze-loop|funclatency-text|features-text|run-object|trace-kprobe|trace-tracepoint|qenter-idle|qenter-reads|qenter-frozen|qenter-split|slowbio-freeze|slowbio-nested|exporter-freeze|exporter-latency|opensnoop-text|funccount-kprobe|vfsstat-text|breakdown-freeze|breakdown-nesting|hygiene-sigint|detach-background|runqlen-spin|syscount-exact|hardirqs-count|softirqs-count|oomkill-memcg|bitesize-text|biotop-text|drsnoop-memcg|cachestat-reread|fsslower-ext4|fsdist-ext4|tcpconnect-lo|tcpaccept-lo|sockoff-btf|exitsnoop-codes|exporter-sched|tcpstates-lo|tcplife-bytes|tcpretrans-count|tcpdrop-lo|exporter-fs|exporter-tcp|offsets-pahole)$
oldest  ^(uprobe|runqlat-counts|cpudist-slices|killsnoop-signals|profile-folded|run-perf|biosnoop-text|biolatency-text|execsnoop-text|freeze-storm|freeze-loop|funclatency-text|features-text|run-object|qenter-reads|qenter-split|slowbio-nested|exporter-freeze|exporter-latency|opensnoop-text|funccount-kprobe|vfsstat-text|hygiene-sigint|old-refuses|detach-background|runqlen-spin|syscount-exact|hardirqs-count|softirqs-count|oomkill-memcg|bitesize-text|biotop-text|drsnoop-memcg|cachestat-reread|fsslower-ext4|fsdist-ext4|trace-args-entry|trace-args-open|trace-args-read|trace-args-syscall|trace-args-sysfs|trace-kprobe|trace-tracepoint|tcpconnect-lo|tcpaccept-lo|sockoff-btf|exitsnoop-codes|exporter-sched|breakdown-freeze|breakdown-nesting|tcpstates-lo|tcplife-bytes|tcpretrans-count|tcpdrop-lo|exporter-fs|exporter-tcp|offsets-pahole)$
arch      $ARCH_NET_CASES
armold    $ARMOLD_CASES
arm419    $ARM419_CASES
riscv612  $RISCV612_CASES
riscv7    $RISCV7_CASES
"
case_set() { awk -v s="$1" '$1 == s { print $2 }' <<<"$CASE_SETS"; }

# The architecture of an ELF executable, from e_machine.
elf_arch() {
	[ "$(head -c 4 "$1" 2>/dev/null)" = $'\177ELF' ] || return 0
	case $(od -An -tx1 -j18 -N2 "$1" 2>/dev/null | tr -d ' \n') in
	3e00) echo x86_64 ;;
	b700) echo aarch64 ;;
	2800) echo armv7 ;;
	f300) echo riscv64 ;;
	esac
}

[ $# -ge 1 ] || usage
declare -A BIN=()
KERNELS=()
for a in "$@"; do
	if [ -n "$(kernel_field "$a" 2)" ]; then
		KERNELS+=("$a")
	elif [ -f "$a" ]; then
		[ -x "$a" ] || { echo "$0: $a: not an executable" >&2; exit 2; }
		arch=$(elf_arch "$a")
		[ -n "$arch" ] || { echo "$0: $a: not an x86_64, aarch64, armv7 or riscv64 executable (EM_X86_64, EM_AARCH64, EM_ARM or EM_RISCV)" >&2; exit 2; }
		[ -z "${BIN[$arch]:-}" ] || { echo "$0: two $arch binaries: ${BIN[$arch]} and $a" >&2; exit 2; }
		BIN[$arch]=$(realpath "$a")
	else
		echo "$0: '$a' is neither a file nor a kernel label" >&2; usage
	fi
done
[ ${#BIN[@]} -gt 0 ] || { echo "$0: no barebpf binary given" >&2; usage; }
if [ ${#KERNELS[@]} = 0 ]; then
	for k in $(kernel_labels); do [ -n "${BIN[$(kernel_field $k 2)]:-}" ] && KERNELS+=("$k"); done
fi
for k in "${KERNELS[@]}"; do
	arch=$(kernel_field $k 2)
	[ -n "${BIN[$arch]:-}" ] || { echo "$0: kernel $k needs an $arch barebpf (give one: make ARCH=$arch O=build-$arch, then build-$arch/barebpf)" >&2; exit 2; }
done
CI_MODE=0
[ "${CI:-}" = true ] && CI_MODE=1
ALLOW_MISSING=0
[ "${VMTEST_ALLOW_MISSING:-0}" = 1 ] && [ $CI_MODE = 0 ] && ALLOW_MISSING=1
for t in cpio gzip; do
	command -v $t >/dev/null || { echo "$0: $t not found (see vm-tests/README.md)" >&2; exit 2; }
done
qemu_of() {
	case $1 in
	x86_64) echo qemu-system-x86_64 ;;
	aarch64) echo qemu-system-aarch64 ;;
	armv7) echo qemu-system-arm ;;
	riscv64) echo qemu-system-riscv64 ;;
	esac
}
for arch in "${!BIN[@]}"; do
	command -v "$(qemu_of $arch)" >/dev/null ||
		{ echo "$0: $(qemu_of $arch) not found (scripts/deps.sh installs it)" >&2; exit 2; }
done
HOST_ARCH=$(uname -m)
HOST_BUSYBOX=/bin/busybox
$HOST_BUSYBOX --list >/dev/null 2>&1 || { echo "$0: no $HOST_BUSYBOX (apt-get install busybox-static)" >&2; exit 2; }
if ! file -L "$HOST_BUSYBOX" 2>/dev/null | grep -q 'statically linked' && command -v file >/dev/null; then
	echo "$0: $HOST_BUSYBOX is not static (apt-get install busybox-static)" >&2; exit 2
fi

ALL_CASES=()
SUITE=${VMTEST_SUITE:-cases}
[ -d "$HERE/$SUITE" ] || { echo "$0: no suite '$SUITE' in $HERE" >&2; exit 2; }
for c in "$HERE/$SUITE"/*.sh; do
	n=$(basename "$c" .sh)
	[ -n "${VMTEST_CASES:-}" ] && ! grep -qE "${VMTEST_CASES}" <<<"$n" && continue
	ALL_CASES+=("$n")
done
[ ${#ALL_CASES[@]} -gt 0 ] || { echo "$0: no case matches '${VMTEST_CASES:-}'" >&2; exit 2; }
for k in "${KERNELS[@]}"; do
	s=$(kernel_field "$k" 5)
	[ -z "$s" ] || [ -n "$(case_set "$s")" ] || { echo "$0: kernel $k: no case set '$s' in CASE_SETS" >&2; exit 2; }
done
# select_cases LABEL: the cases of one kernel (its set, of those selected)
# in CASES; EXPECT the result lines its boot must print: the cases, then
# init's own check that the kernel logged no warning while they ran; LONG
# what the cases declare beyond their share: a line "# vmtest-timeout:
# SECS" (init gives the case that long instead of CASE_TIMEOUT).
select_cases() {
	local n set re=
	set=$(kernel_field "$1" 5)
	# (the sets are of the cases suite; bench and stress run whole)
	[ -n "$set" ] && [ "$SUITE" = cases ] && re=$(case_set "$set")
	CASES=()
	for n in "${ALL_CASES[@]}"; do
		if [ "${re#!}" != "$re" ]; then
			grep -qE "${re#!}" <<<"$n" && continue
		elif [ -n "$re" ]; then
			grep -qE "$re" <<<"$n" || continue
		fi
		CASES+=("$n")
	done
	EXPECT=("${CASES[@]}" kernel-log)
	EXPECTED=()
	for n in "${EXPECT[@]}"; do EXPECTED[$n]=1; done
	LONG=$(for n in "${CASES[@]}"; do sed -n 's/^# vmtest-timeout: \([0-9]*\)$/\1/p' "$HERE/$SUITE/$n.sh"; done |
		awk '{ s += $1 } END { print s + 0 }')
}
declare -A EXPECTED=()
JOBS=${VMTEST_JOBS:-$(n=$(nproc 2>/dev/null || echo 2); echo $((n > 2 ? n : 2)))}
SMP=${VMTEST_SMP:-2}

# Seconds a boot may take before it is stopped: a boot is 5-15 s, a case
# 3-10 s under TCG, about twice that when aarch64 is emulated; the margin
# is for a host busy with other work (a case is stopped after CASE_TIMEOUT
# anyway, so a generous boot timeout costs nothing when all is well).
boot_timeout() { # boot_timeout ARCH
	local f=1
	[ -n "${VMTEST_TIMEOUT:-}" ] && { echo "$VMTEST_TIMEOUT"; return; }
	[ "$1" = x86_64 ] || f=2
	echo $(((90 + 20 * ${#CASES[@]} + LONG) * f))
}

WORK=$(mktemp -d /tmp/barebpf-vmtest.XXXXXX)
trap 'jobs -p | xargs -r kill 2>/dev/null; rm -rf "$WORK"' EXIT
mkdir -p "$CACHE" "$LOGS"

# Per architecture: a copy of the binary (a rebuild meanwhile does not mix
# binaries), its tool names, busybox, and the BPF objects of the `run` cases.
declare -A TOOLS=() BUSYBOX=() BPFWHY=() SPINWHY=()
CLANG=${CLANG:-clang}
# The tools' names: from the binary when it runs here, else from the tool
# definitions in the sources (as the Makefile makes its links).
tool_names() { # tool_names BINARY
	"$1" --list-tools 2>/dev/null ||
		sed -n '/^const struct tool tool_/{n;s/^[[:space:]]*"\([^"]*\)".*/\1/p;}' "$ROOT"/loader/tools/*.c "$ROOT"/loader/tools/*/*.c
}
bpf_target() { case $1 in x86_64) echo x86 ;; aarch64) echo arm64 ;; armv7) echo arm ;; riscv64) echo riscv ;; esac; }
# The BPF objects of the `run` cases, built like the Makefile builds ours,
# for ARCH's pt_regs: vm-tests/bpf/*, the test objects of every kind
# (tests/bpf; btf_* with -g, as libbpf-style objects are built) and, made
# with tests/tools/oldform.c, vmtest_count as clang 6/7 wrote it.
build_bpf() { # build_bpf ARCH SRC [FLAGS]
	local arch=$1 src=$2; shift 2
	"$CLANG" -target bpf -O2 -mcpu=v2 -g0 "$@" -D__TARGET_ARCH_$(bpf_target "$arch") -I"$ROOT/bpf" \
		-I"$ROOT/tests/bpf" -Wall -Werror -Wno-unused-function -c "$src" \
		-o "$WORK/$arch/bpf/$(basename "$src" .c).o" 2>"$WORK/clang-$arch.log" ||
		BPFWHY[$arch]="$(basename "$src") does not build: $(head -n 1 "$WORK/clang-$arch.log")"
}
build_bpfobjs() { # build_bpfobjs ARCH
	local arch=$1 f
	BPFWHY[$arch]=
	mkdir -p "$WORK/$arch/bpf"
	if ! command -v "$CLANG" >/dev/null; then
		BPFWHY[$arch]="no $CLANG on the host to build vm-tests/bpf/*.bpf.c"
		return
	fi
	for f in "$HERE"/bpf/*.bpf.c "$ROOT"/tests/bpf/{syscalls,syscalls_wrap,printk,calls,maps_bpfload,sampleip_kern,trace_event_kern}.bpf.c; do
		build_bpf "$arch" "$f"
	done
	for f in "$ROOT"/tests/bpf/btf_{rodata,maps}.bpf.c; do build_bpf "$arch" "$f" -g; done
	if ${HOST_CC:-cc} -O2 -o "$WORK/oldform" "$ROOT/tests/tools/oldform.c" 2>"$WORK/cc.log"; then
		"$WORK/oldform" "$WORK/$arch/bpf/vmtest_count.bpf.o" "$WORK/$arch/bpf/vmtest_count_old.bpf.o" ||
			BPFWHY[$arch]="oldform failed on vmtest_count.bpf.o"
	else
		BPFWHY[$arch]="tests/tools/oldform.c does not build: $(head -n 1 "$WORK/cc.log")"
	fi
}

# guest/spin.c, the program profile's cases name the functions of: built
# without a C library by the guest architecture's cross compiler (all of
# them in scripts/deps.sh); an ELF32 on armv7, as that board's programs.
spin_cc() {
	case $1 in
	x86_64) echo "${HOST_CC:-cc}" ;;
	aarch64) echo aarch64-linux-gnu-gcc ;;
	armv7) echo arm-linux-gnueabihf-gcc ;;
	riscv64) echo riscv64-linux-gnu-gcc ;;
	esac
}
build_spin() { # build_spin ARCH
	local cc
	cc=$(spin_cc "$1")
	SPINWHY[$1]=
	"$cc" -O1 -fno-omit-frame-pointer -ffreestanding -nostdlib -static \
		-o "$WORK/$1/spin" "$HERE/guest/spin.c" 2>"$WORK/spin-$1.log" ||
		SPINWHY[$1]="guest/spin.c does not build with $cc: $(head -n 1 "$WORK/spin-$1.log")"
}

# The uprobe case's target (tests/tools/ucalls.c), static, by the musl
# compiler of ARCH (as the Makefile names them); none: the case skips.
# armv7: ARM code, not Thumb, which 32-bit ARM kernels cannot probe.
build_ucalls() { # build_ucalls ARCH
	local cc flags=
	case $1 in
	x86_64) cc=musl-gcc ;;
	armv7) cc=arm-linux-musleabihf-gcc flags=-marm ;;
	*) cc=$1-linux-musl-gcc ;;
	esac
	command -v $cc >/dev/null &&
		$cc -static -O1 -fno-inline $flags -o "$WORK/$1/ucalls" "$ROOT/tests/tools/ucalls.c" 2>/dev/null ||
		rm -f "$WORK/$1/ucalls"
}

PASSED=0 FAILED=0 SKIPPED=0
result() { # result LINE
	echo "$1"
	case $1 in
	PASS*) PASSED=$((PASSED + 1)) ;;
	FAIL*) FAILED=$((FAILED + 1)) ;;
	SKIP*) SKIPPED=$((SKIPPED + 1)) ;;
	esac
}
# A kernel that cannot be had: FAIL (CI must not go green without it), or
# SKIP on a developer machine that asked for it (VMTEST_ALLOW_MISSING=1).
missing_kernel() { # missing_kernel LABEL WHY
	local c v=FAIL
	select_cases "$1"
	[ $ALLOW_MISSING = 1 ] && v=SKIP
	result "$v boot ($1): $2"
	for c in "${EXPECT[@]}"; do result "$v $c ($1): $2"; done
	[ $v = FAIL ] && [ $CI_MODE = 0 ] && echo "    | (VMTEST_ALLOW_MISSING=1 makes this a SKIP on a developer machine)"
	return 0
}

# ---- kernels ---------------------------------------------------------------
# prepare_* set KIMG (kernel image), KMODS (folder with configfs.ko and
# null_blk.ko, or "" when null_blk is built in), KAPPEND (extra kernel
# command line), KREL (expected uname -r, or a prefix), or WHY (cannot).

prepare_shared() { # prepare_shared LABEL FOLDER: a kernel of ../shared/kernels
	local d img=bzImage var=BAREBPF_KERNEL_415
	case $1 in
	arm64-4.15) img=Image.gz var=BAREBPF_KERNEL_415_ARM64 ;;
	armv7-4.19) img=zImage var=BAREBPF_KERNEL_419_ARMV7 ;;
	4.19) var=BAREBPF_KERNEL_419 ;;
	4.14) var=BAREBPF_KERNEL_414 ;;
	4.9) var=BAREBPF_KERNEL_49 ;;
	armv7-4.19) img=zImage var=BAREBPF_KERNEL_419_ARMV7 ;;
	esac
	d=${!var:-$ROOT/../shared/kernels/$2}
	KIMG=$d
	[ -d "$d" ] && KIMG=$d/$img
	if [ ! -f "$KIMG" ]; then
		WHY="no $1 kernel at $KIMG (set $var)"
		return 1
	fi
	# null_blk is built in: its options go on the command line.
	KMODS=
	KAPPEND="null_blk.queue_mode=2 null_blk.irqmode=2 null_blk.completion_nsec=$NSEC null_blk.nr_devices=1"
	KREL=${2%-arm*}.
}

# The Debian mirror this machine's apt already uses.
debian_mirror() {
	local m
	if [ -n "${VMTEST_MIRROR:-}" ]; then echo "$VMTEST_MIRROR"; return; fi
	m=$( {
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			sed -n 's/^[[:space:]]*deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\{0,1\}\([^[:space:]]\+\)[[:space:]]\+\([^[:space:]]\+\).*/\2 \3/p'
		cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
			awk 'tolower($1) == "uris:" { u = $2 } tolower($1) == "suites:" { print u, $2 }'
	} | awk '$2 !~ /security/ && $1 ~ /debian\/?$/ { print $1; exit }')
	echo "${m:-http://deb.debian.org/debian}"
}

# A private apt configuration for one suite and architecture of the mirror,
# apart from the machine's own (sources, lists, cache, status, and no
# dpkg --add-architecture needed). Sets APTO.
private_apt() { # private_apt SUITE DEBARCH
	local a=$CACHE/apt-$1-$2
	mkdir -p "$a/etc/preferences.d" "$a/state/lists/partial" "$a/cache/archives/partial"
	echo "deb [arch=$2 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) $1 main" \
		>"$a/etc/sources.list"
	APTO=(-o "Dir::Etc::SourceList=$a/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::Etc::PreferencesParts=$a/etc/preferences.d" -o Dir::Etc::Preferences=/dev/null
		-o "Dir::State=$a/state" -o Dir::State::status=/dev/null -o "Dir::Cache=$a/cache"
		-o APT::Architecture=$2 -o APT::Architectures=$2 -o Acquire::Languages=none
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	apt-get "${APTO[@]}" -qq update >"$WORK/apt-update-$1-$2.log" 2>&1
}
apt_error() { grep -E '^(E|W):' "$1" | head -n 1; }

# The packages that hold the newest cloud kernel of the suite: the versioned
# image package the linux-image-cloud-ARCH meta package points at, or, where
# that is empty (sid, 7.x), the linux-binary-* (the image) and
# linux-modules-* packages it depends on. arm64: the -unsigned package, which
# holds the plain Image QEMU boots (the signed one is an EFI binary).
cloud_pkgs() { # cloud_pkgs DEBARCH
	local img deps
	local fl
	fl=$(deb_flavour "$1")
	img=$(apt-cache "${APTO[@]}" depends "linux-image-$fl" 2>/dev/null |
		awk -v f="$fl" '$1 == "Depends:" && $2 ~ "^linux-image-[0-9].*-" f "$" { print $2; exit }')
	[ -n "$img" ] || return 1
	deps=$(apt-cache "${APTO[@]}" depends "$img" 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-(binary|modules)-[0-9]/ { print $2 }')
	if [ -n "$deps" ]; then
		echo $deps
	elif [ "$1" = arm64 ] && apt-cache "${APTO[@]}" show "$img-unsigned" >/dev/null 2>&1; then
		echo "$img-unsigned"
	else
		echo "$img"
	fi
}

# ko_copy SRC DST: a module, decompressed.
ko_copy() {
	case $1 in
	*.ko) cp "$1" "$2" ;;
	*.ko.xz) xz -dc "$1" >"$2" ;;
	*.ko.zst) zstd -qdc "$1" >"$2" ;;
	*.ko.gz) gzip -dc "$1" >"$2" ;;
	*) false ;;
	esac || { WHY="cannot decompress $1"; return 1; }
}

# mod_deps TREE NAME DST: NAME.ko from TREE into DST, after the modules
# its .modinfo depends= names (recursively), each appended to
# DST/ext4.order once it and its own are there: insmod's order.
mod_deps() {
	local n=$2 d f
	grep -qx "$n" "$3/ext4.order" && return 0
	# depends= spells names with _, files may have - (mq-deadline)
	f=$(find "$1" -path '*/lib/modules/*' -name "${n//_/[_-]}.ko*" | head -n 1)
	[ -n "$f" ] || { WHY="no $n.ko (ext4 needs it) in the kernel packages"; return 1; }
	ko_copy "$f" "$3/$n.ko" || return 1
	for d in $(tr '\0' '\n' <"$3/$n.ko" | sed -n 's/^depends=//p' | head -n 1 | tr , ' '); do
		mod_deps "$1" "$d" "$3" || return 1
	done
	for d in $(tr '\0' '\n' <"$3/$n.ko" | sed -n 's/^softdep=pre: *//p' | sed 's/ *post:.*//'); do
		mod_alg "$1" "$d" "$3" || return 1
	done
	echo "$n" >>"$3/ext4.order"
}

# mod_alg TREE ALG DST: a crypto algorithm's module (softdep=pre: crc32c or
# crypto-crc32c), ALG or ALG_generic, as mod_deps; none where it is built in.
mod_alg() {
	local f a=${2#crypto-}
	for f in "$a" "${a}_generic"; do
		[ -n "$(find "$1" -path '*/lib/modules/*' -name "${f//_/[_-]}.ko*" | head -n 1)" ] || continue
		mod_deps "$1" "$f" "$3"
		return
	done
}

# Download PKGS and keep the kernel image and the modules in $CACHE/LABEL/KEY/.
fetch_pkgs() { # fetch_pkgs LABEL KEY PKG...
	local label=$1 dst=$CACHE/$1/$2 t m f img; shift 2
	t=$WORK/fetch-$label
	rm -rf "$t"; mkdir -p "$t/x"
	(cd "$t" && apt-get "${APTO[@]}" -qq download "$@") >"$t/log" 2>&1 || {
		WHY="apt-get download $* failed: $(apt_error "$t/log")"
		return 1
	}
	for f in "$t"/*.deb; do dpkg-deb -x "$f" "$t/x" || { WHY="dpkg-deb -x $f failed"; return 1; }; done
	rm -rf "$dst.new"; mkdir -p "$dst.new"
	# boot/vmlinuz-<ver> until trixie; usr/lib/modules/<ver>/vmlinuz in sid
	# (vmlinux on riscv64: its plain Image, uncompressed)
	img=$(ls "$t"/x/boot/vmlinu[zx]-* "$t"/x/usr/lib/modules/*/vmlinu[zx] 2>/dev/null | head -n 1)
	[ -n "$img" ] && cp "$img" "$dst.new/vmlinuz" || { WHY="no kernel image in $*"; return 1; }
	# loop is optional: only freeze-loop needs it (it SKIPs without);
	# mq-deadline is a module from 6.12 on (built in before): the cases
	# switch nullb0 between it and none.
	for m in configfs null_blk loop mq-deadline; do
		f=$(find "$t/x" -path '*/lib/modules/*' -name "$m.ko*" | head -n 1)
		case $f in
		*.ko) cp "$f" "$dst.new/$m.ko" ;;
		*.ko.xz) xz -dc "$f" >"$dst.new/$m.ko" ;;
		*.ko.zst) zstd -qdc "$f" >"$dst.new/$m.ko" ;;
		*.ko.gz) gzip -dc "$f" >"$dst.new/$m.ko" ;;
		"") [ $m = loop ] || [ $m = mq-deadline ] && continue; WHY="no $m.ko in $*"; return 1 ;;
		*) WHY="no $m.ko in $*"; return 1 ;;
		esac || { WHY="cannot decompress $f"; return 1; }
	done
	# ext4 where it is a module (Debian's armmp and riscv64 kernels): it
	# and what it needs, listed in ext4.order in the order insmod takes them.
	if [ -n "$(find "$t/x" -path '*/lib/modules/*' -name 'ext4.ko*' | head -n 1)" ]; then
		: >"$dst.new/ext4.order"
		# crc32c: ext4 6.12 allocates it at every mount with no softdep
		mod_alg "$t/x" crc32c "$dst.new" && mod_deps "$t/x" ext4 "$dst.new" || return 1
	fi
	ls "$t"/x/lib/modules "$t"/x/usr/lib/modules 2>/dev/null | grep -E '^[0-9]' | head -n 1 >"$dst.new/release"
	echo "$CACHE_FORMAT" >"$dst.new/format"
	echo "$CACHE_MODS" >"$dst.new/mods"
	rm -rf "$dst" "$t"; mv "$dst.new" "$dst"
}

# What a cached kernel folder holds; a folder of another format is fetched
# again (2: mq-deadline.ko where it is a module). CACHE_MODS in the file
# mods: ext4.ko, the modules it needs (crc32c's too) and ext4.order where
# ext4 is a module; a folder without it is fetched again too. It is a file
# of its own so that a run.sh of before (which re-fetches any format but
# its own) still takes the new folders, shared in one cache, as they are.
CACHE_FORMAT=2
CACHE_MODS=ext4

deb_arch() { case $1 in x86_64) echo amd64 ;; aarch64) echo arm64 ;; armv7) echo armhf ;; riscv64) echo riscv64 ;; esac; }
# Debian's kernel flavour: cloud where there is one; armhf's multiplatform
# kernel (virt is one of its platforms) and riscv64's only one otherwise.
deb_flavour() { case $1 in amd64|arm64) echo "cloud-$1" ;; armhf) echo armmp ;; *) echo "$1" ;; esac; }

# prepare_debian LABEL SUITE ARCH: the newest cloud kernel of the suite.
prepare_debian() {
	local label=$1 suite=$2 da pkgs= key= dir= why=
	da=$(deb_arch "$3")
	if [ "${VMTEST_OFFLINE:-0}" != 1 ]; then
		if ! private_apt "$suite" "$da"; then
			why="apt-get update of $suite ($da) on $(debian_mirror) failed: $(apt_error "$WORK/apt-update-$suite-$da.log")"
		elif ! pkgs=$(cloud_pkgs "$da"); then
			why="no linux-image-$(deb_flavour "$da") in $suite on $(debian_mirror)"
		else
			key=${pkgs%% *}
			if [ "$(cat "$CACHE/$label/$key/format" 2>/dev/null)" = "$CACHE_FORMAT" ] &&
				[ "$(cat "$CACHE/$label/$key/mods" 2>/dev/null)" = "$CACHE_MODS" ]; then
				dir=$CACHE/$label/$key
			elif fetch_pkgs "$label" "$key" $pkgs; then
				dir=$CACHE/$label/$key
				echo "=== $label: fetched $pkgs"
			else
				why=$WHY
			fi
		fi
	fi
	if [ -z "$dir" ]; then
		# Offline, or the mirror failed: the newest kernel cached before.
		dir=$(ls -d "$CACHE/$label"/linux-* 2>/dev/null | grep -v '\.new$' | sort -V | tail -n 1)
		if [ -z "$dir" ] || [ ! -f "$dir/vmlinuz" ]; then
			WHY="cannot fetch Debian $suite's $da $(deb_flavour "$da") kernel${why:+: $why}"
			return 1
		fi
		echo "=== $label: using cached $(basename "$dir")${why:+ ($why)}"
	fi
	KIMG=$dir/vmlinuz
	KMODS=$dir
	KAPPEND=
	KREL=$(cat "$dir/release")
}

# busybox-static for an architecture this host cannot run: bookworm's
# package (trixie's for riscv64, which bookworm does not have), through a
# private apt configuration, kept in the cache.
prepare_busybox() { # prepare_busybox ARCH: sets BUSYBOX[ARCH] or WHY
	local da bb t f suite=bookworm
	if [ "$1" = "$HOST_ARCH" ]; then BUSYBOX[$1]=$HOST_BUSYBOX; return 0; fi
	da=$(deb_arch "$1")
	[ "$1" = riscv64 ] && suite=trixie
	bb=$CACHE/busybox-$da/busybox
	if [ ! -x "$bb" ] && [ "${VMTEST_OFFLINE:-0}" != 1 ]; then
		t=$WORK/busybox-$da
		mkdir -p "$t/x"
		if ! private_apt $suite "$da"; then
			WHY="apt-get update of $suite ($da) failed: $(apt_error "$WORK/apt-update-$suite-$da.log")"
			return 1
		fi
		(cd "$t" && apt-get "${APTO[@]}" -qq download busybox-static) >"$t/log" 2>&1 ||
			{ WHY="apt-get download busybox-static ($da) failed: $(apt_error "$t/log")"; return 1; }
		# bin/busybox until bookworm, usr/bin/busybox from trixie on
		dpkg-deb -x "$t"/busybox-static_*.deb "$t/x" || { WHY="dpkg-deb -x busybox-static ($da) failed"; return 1; }
		f=$t/x/bin/busybox
		[ -f "$f" ] || f=$t/x/usr/bin/busybox
		[ "$(elf_arch "$f")" = "$1" ] ||
			{ WHY="no $1 bin/busybox in busybox-static ($da)"; return 1; }
		mkdir -p "$(dirname "$bb")" && cp "$f" "$bb.new" && mv "$bb.new" "$bb"
	fi
	[ -x "$bb" ] || { WHY="no $da busybox-static in $CACHE (offline)"; return 1; }
	BUSYBOX[$1]=$bb
}

# prepare LABEL: sets KARCH KIMG KMODS KAPPEND KREL, or WHY.
prepare() {
	local from
	KIMG= KMODS= KAPPEND= KREL= WHY=
	KARCH=$(kernel_field "$1" 2)
	from=$(kernel_field "$1" 3)
	case $from in
	shared) prepare_shared "$1" "$(kernel_field "$1" 4)" ;;
	debian) prepare_debian "$1" "$(kernel_field "$1" 4)" "$KARCH" ;;
	esac
}

# ---- one boot --------------------------------------------------------------
build_initramfs() { # build_initramfs LABEL ARCH OUT
	local d=$WORK/root-$1 a t bb=${BUSYBOX[$2]}
	rm -rf "$d"
	mkdir -p "$d"/{bin,dev,proc,sys,tmp,etc,vmtest/cases,vmtest/modules,vmtest/bpf}
	cp "$bb" "$d/bin/busybox"
	cp "$WORK/$2/barebpf" "$d/bin/barebpf"
	for t in ${TOOLS[$2]}; do ln -s barebpf "$d/bin/$t"; done
	# The applets: the host's busybox lists them when it is of the guest's
	# architecture; otherwise init installs them (busybox --install -s).
	ln -s busybox "$d/bin/sh"
	if [ "$bb" = "$HOST_BUSYBOX" ]; then
		for a in $($bb --list); do
			[ -e "$d/bin/$a" ] || ln -s busybox "$d/bin/$a"
		done
	fi
	cp "$HERE/guest/init" "$d/init"
	cp "$HERE/guest/lib.sh" "$d/vmtest/lib.sh"
	for c in "${CASES[@]}"; do cp "$HERE/$SUITE/$c.sh" "$d/vmtest/cases/"; done
	# offsets-pahole's fixtures (vm-tests/offsets/LABEL.txt)
	mkdir -p "$d/vmtest/offsets" && cp "$HERE"/offsets/*.txt "$d/vmtest/offsets/" 2>/dev/null || true
	[ -n "$KMODS" ] && cp "$KMODS"/*.ko "$d/vmtest/modules/"
	[ -n "$KMODS" ] && [ -f "$KMODS/ext4.order" ] && cp "$KMODS/ext4.order" "$d/vmtest/modules/"
	if [ -z "${BPFWHY[$2]}" ]; then cp "$WORK/$2/bpf"/*.o "$d/vmtest/bpf/"; else echo "${BPFWHY[$2]}" >"$d/vmtest/bpf/why"; fi
	if [ -z "${SPINWHY[$2]}" ]; then cp "$WORK/$2/spin" "$d/vmtest/spin"; else echo "${SPINWHY[$2]}" >"$d/vmtest/spin.why"; fi
	[ -x "$WORK/$2/ucalls" ] && cp "$WORK/$2/ucalls" "$d/vmtest/ucalls"
	cat >"$d/vmtest/config" <<-EOF
		LABEL=$1
		N=$N
		NSEC=$NSEC
		BUCKET_LO=$BUCKET_LO
		BUCKET_HI=$BUCKET_HI
		CASE_TIMEOUT=$CASE_TIMEOUT
		TOOLS="${TOOLS[$2]}"
		VERBOSE=${VMTEST_VERBOSE:-0}
		SLOW=${VMTEST_SLOW:-0}
	EOF
	chmod +x "$d/init"
	(cd "$d" && find . | cpio -o -H newc --quiet | gzip -1) >"$3"
}

qemu_cmd() { # qemu_cmd ARCH: sets QEMU (command and machine) and CONSOLE
	case $1 in
	# no_timer_check: on a starved host the emulated 8254 misses the
	# kernel's early IO-APIC timer check, which then panics ("IO-APIC +
	# timer doesn't work", seen on 6.12 with load 12 on 2 cores)
	x86_64) QEMU=(qemu-system-x86_64 -accel "$TCG") CONSOLE=ttyS0 KARGS=no_timer_check ;;
	# cortex-a57: 4.15 predates what QEMU's "max" CPU offers (FEAT_LPA2)
	aarch64) QEMU=(qemu-system-aarch64 -M virt -cpu cortex-a57 -accel "$TCG") CONSOLE=ttyAMA0 KARGS= ;;
	# highmem=off: the 32-bit kernel without LPAE reaches no device above
	# 4 GiB. maxcpus=1: the second CPU is brought online by init, after
	# boot (vmtest_online_cpus in guest/init): booted with both, single-
	# threaded TCG takes minutes at the end of boot (arm32's cpu_relax
	# never yields to the other vCPU while the kernel flushes the TLB
	# page by page under stop_machine). Each vCPU on its own host thread
	# (multi-threaded TCG) for the same reason: the kernel patches its
	# text under stop_machine (a tracepoint or kprobe enabled), and with
	# the vCPUs taking turns that took minutes and soft lockups per case.
	armv7) QEMU=(qemu-system-arm -M virt,highmem=off -cpu cortex-a15 -accel "${VMTEST_TCG:-tcg,thread=multi}")
		CONSOLE=ttyAMA0 KARGS=maxcpus=1 ;;
	# -bios default: OpenSBI (package opensbi) as the firmware
	riscv64) QEMU=(qemu-system-riscv64 -M virt -bios default -accel "$TCG") CONSOLE=ttyS0 KARGS= ;;
	esac
}

# oops_lines LOG: the console from the kernel's first complaint on (an
# oops, a BUG, a panic), at most 60 lines; nothing if there was none.
# HANG_RE: the complaints after which a silent guest is taken for hung
# (not a WARNING: the kernel goes on after one)
HANG_RE='BUG:|Oops|general protection|Kernel panic|kernel BUG|Unable to handle|Internal error'
OOPS_RE="$HANG_RE|Call [Tt]race|WARNING:"
oops_lines() {
	local n
	n=$(grep -m 1 -nE "$OOPS_RE" "$1" | cut -d: -f1)
	[ -z "$n" ] || sed -n "$n,\$p" "$1" | head -n 60
}

# boot_kernel LABEL: boot, read the results; prints result lines only (the
# caller counts them). Runs in the background beside another boot.
#
# A guest that stops before its end marker (a kernel crash: panic=-1 and
# -no-reboot make QEMU exit; or an oops after which the console stayed
# silent for OOPS_QUIET s: QEMU is stopped) FAILs the case it was running,
# with the console from the oops on, and is booted again to run the cases
# after that one (at most MAX_RESUMES times): one crash costs one case, not
# the rest of the kernel's cases and the whole boot timeout. The excerpts
# are also kept in $WORK/crash-LABEL and shown again at the end of the run.
OOPS_QUIET=${VMTEST_OOPS_QUIET:-120}
MAX_RESUMES=2
boot_kernel() {
	local label=$1 log=$LOGS/$1.log initrd=$WORK/initrd-$1.gz t0 t1 tb rc rel= r c line timeout
	local raw=$WORK/console-$1 qpid start_timeout started=0 oops size lastsize quiet hung
	local -a QEMU
	local KARGS attempt after= resumes=0 blog crashed ended excerpt
	local results=$WORK/results-$1
	: >"$results"; : >"$log"
	select_cases "$label"
	build_initramfs "$label" "$KARCH" "$initrd" || { echo "FAIL boot ($label): cannot build the initramfs"; return; }
	timeout=$(boot_timeout "$KARCH")
	# A kernel that hangs before /init is stopped long before the boot
	# timeout (boots take 5-15 s under TCG, 30 s seen on a busy host).
	start_timeout=$((timeout < 240 ? timeout : 240))
	qemu_cmd "$KARCH"
	echo "=== $label: booting $KIMG ($KARCH, -smp $SMP, timeout ${timeout}s, ${#CASES[@]} cases)"
	tb=$(date +%s)
	while :; do
	# A kernel that never reaches /init (an early panic on a starved host)
	# is booted once more before its cases FAIL.
	for attempt in 1 2; do
	started=0 oops=0 lastsize=0 quiet=0 hung=0
	t0=$(date +%s)
	timeout -k 5 "$timeout" "${QEMU[@]}" -m 512 -smp "$SMP" -nographic -no-reboot \
		-nodefaults -serial stdio -kernel "$KIMG" -initrd "$initrd" \
		-append "console=$CONSOLE panic=-1 quiet $KARGS $KAPPEND${after:+ vmtest_after=$after}" \
		</dev/null >"$raw" 2>&1 &
	qpid=$!
	while kill -0 $qpid 2>/dev/null; do
		[ $started = 1 ] || ! grep -q '=== VMTEST START ' "$raw" 2>/dev/null || started=1
		if [ $started = 0 ] && [ $(($(date +%s) - t0)) -ge $start_timeout ]; then
			kill $qpid 2>/dev/null
			break
		fi
		# an oops, then silence: the guest is hung (seen: 4.15 after an
		# oops in blk_mq_freeze_queue_wait, until the boot timeout)
		if [ $started = 1 ]; then
			size=$(stat -c %s "$raw" 2>/dev/null || echo 0)
			if [ "$size" != "$lastsize" ]; then
				lastsize=$size quiet=0
				[ $oops = 1 ] || ! grep -qE "$HANG_RE" "$raw" || oops=1
			else
				quiet=$((quiet + 1))
				if [ $oops = 1 ] && [ $quiet -ge "$OOPS_QUIET" ]; then
					echo "=== $label: an oops on the console, then ${OOPS_QUIET} s of silence: stopping the guest"
					kill $qpid 2>/dev/null
					hung=1
					break
				fi
			fi
		fi
		sleep 1
	done
	wait $qpid
	rc=$?
	t1=$(date +%s)
	blog=$LOGS/$label${after:+.after-$after}.log
	tr -d '\r' <"$raw" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' >"$blog"
	# (the firmware's terminal escapes may share the start marker's line)
	r=$(sed -n 's/.*=== VMTEST START //p' "$blog" | head -n 1)
	[ -n "$r" ] && break
	if [ $attempt = 1 ]; then
		echo "=== $label: no start marker (qemu exit $rc after $((t1 - t0)) s; last line: $(tail -n 1 "$blog")): booting again"
		continue
	fi
	echo "FAIL boot ($label): the kernel did not boot (no start marker; qemu exit $rc after $((t1 - t0)) s)"
	echo "    | last console lines ($blog):"; tail -n 20 "$blog" | sed 's/^/    | /'
	for c in "${EXPECT[@]}"; do
		grep -qE "^(PASS|FAIL|SKIP) $c \\(" "$results" ||
			echo "FAIL $c ($label): not run, the kernel did not boot"
	done
	echo "=== $label: ${#CASES[@]} cases in $((t1 - tb)) s"
	return
	done
	rel=$r
	[ -z "$after" ] || cat "$blog" >>"$log"
	[ -n "$after" ] && echo "=== $label: booted again $rel, from the case after $after" ||
		echo "=== $label: booted $rel ($(sed -n 's/^=== uname -m: //p' "$blog" | head -n 1)); console log in $log"
	# Every case's line, in order, with the diagnostics under a FAIL.
	while IFS= read -r line; do
		case $line in
		"PASS "*|"FAIL "*|"SKIP "*)
			# (no `printf | grep -q` here: with pipefail, grep's early
			# exit could fail the pipe by SIGPIPE and drop the line)
			c=${line#* }; c=${c%% *}
			[ -n "${EXPECTED[$c]:-}" ] && { echo "$line"; echo "$line" >>"$results"; } ;;
		"    | "*) echo "$line" ;;
		esac
	done <"$blog"
	grep -q "^=== VMTEST END " "$blog" && break
	# Stopped early: which case was running?
	crashed=$(sed -n 's/^=== case \(.*\) begins$/\1/p' "$blog" | tail -n 1)
	ended=1
	[ -n "$crashed" ] && ! grep -qE "^(PASS|FAIL|SKIP) $crashed \\(" "$blog" && ended=0
	if { [ $hung = 0 ] && { [ $rc = 124 ] || [ $rc = 137 ]; }; } || [ -z "$crashed" ] || [ $ended = 1 ]; then
		# the boot timeout, or a stop between cases: no resume
		echo "FAIL boot ($rel): no end marker after $((t1 - t0)) s (timeout ${timeout}s, qemu exit $rc)"
		echo "    | last console lines ($blog):"; tail -n 20 "$blog" | sed 's/^/    | /'
		break
	fi
	if [ $hung = 1 ]; then
		line="FAIL $crashed ($rel): the kernel hung after an oops during this case (stopped after $((t1 - t0)) s)"
	else
		line="FAIL $crashed ($rel): the guest stopped during this case (qemu exit $rc after $((t1 - t0)) s: a kernel crash?)"
	fi
	echo "$line"; echo "$line" >>"$results"
	{
		echo "=== $label ($rel): the guest stopped during $crashed; console ($blog):"
		excerpt=$(oops_lines "$blog")
		[ -n "$excerpt" ] && echo "$excerpt" || tail -n 30 "$blog"
	} >>"$WORK/crash-$label"
	sed 's/^/    | /' "$WORK/crash-$label" | tail -n 61
	if [ $resumes -ge $MAX_RESUMES ]; then
		echo "FAIL boot ($rel): the guest stopped $((resumes + 1)) times; not booted again"
		break
	fi
	after=$crashed resumes=$((resumes + 1))
	done
	for c in "${EXPECT[@]}"; do
		grep -qE "^(PASS|FAIL|SKIP) $c \\(" "$results" ||
			echo "FAIL $c ($rel): no result (the guest stopped or timed out before it)"
	done
	if ! grep -q "^=== VMTEST END " "$blog"; then
		:
	elif [ "${rel#"$KREL"}" = "$rel" ]; then
		echo "FAIL boot ($rel): expected a $KREL kernel"
	elif [ $resumes -gt 0 ]; then
		echo "FAIL boot ($rel): the guest stopped $resumes time(s) (see the crash excerpts)"
	else
		echo "PASS boot ($rel)"
	fi
	echo "=== $label: ${#CASES[@]} cases in $((t1 - tb)) s"
}

# ---- the run ---------------------------------------------------------------
# One function, called from the last line: bash reads a script as it runs
# it, and this way an edit of the file during a run cannot derail it.
main() {
	START=$(date +%s)
	for arch in "${!BIN[@]}"; do
		mkdir -p "$WORK/$arch"
		cp "${BIN[$arch]}" "$WORK/$arch/barebpf" || exit 2
		TOOLS[$arch]=$(tool_names "$WORK/$arch/barebpf" | tr '\n' ' ')
		[ -n "${TOOLS[$arch]}" ] || echo "=== warning: no tool names for the $arch binary: no tool symlinks"
		build_bpfobjs "$arch"
		build_spin "$arch"
		build_ucalls "$arch"
	done

	# Fetch every kernel first (seconds each), then boot JOBS at a time; each
	# boot's lines are shown when it ends.
	declare -A PREP=()
	READY=()
	for k in "${KERNELS[@]}"; do
		select_cases "$k"
		if [ ${#CASES[@]} = 0 ]; then
			echo "=== $k: none of its cases ($(kernel_field "$k" 5)) is selected: not booted"
			continue
		fi
		if ! prepare "$k"; then missing_kernel "$k" "$WHY"; continue; fi
		if [ -z "${BUSYBOX[$KARCH]:-}" ] && ! prepare_busybox "$KARCH"; then
			missing_kernel "$k" "$WHY"; continue
		fi
		PREP[$k]=$(declare -p KARCH KIMG KMODS KAPPEND KREL)
		READY+=("$k")
	done

	declare -A RUNNING=()
	collect() { # collect LABEL: show and count a finished boot's lines
		local line
		while IFS= read -r line; do
			case $line in
			"PASS "*|"FAIL "*|"SKIP "*) result "$line" ;;
			*) echo "$line" ;;
			esac
		done <"$WORK/out-$1"
	}
	reap_one() {
		local pid k
		wait -n -p pid "${RUNNING[@]}" 2>/dev/null
		for k in "${!RUNNING[@]}"; do
			[ "${RUNNING[$k]}" = "$pid" ] || continue
			unset "RUNNING[$k]"
			collect "$k"
			return
		done
	}
	for k in "${READY[@]}"; do
		while [ ${#RUNNING[@]} -ge "$JOBS" ]; do reap_one; done
		eval "${PREP[$k]}"
		boot_kernel "$k" >"$WORK/out-$k" 2>&1 &
		RUNNING[$k]=$!
	done
	while [ ${#RUNNING[@]} -gt 0 ]; do reap_one; done

	TIMES=
	for k in "${READY[@]}"; do
		TIMES+="${TIMES:+, }$k $(sed -n 's/^=== .*: [0-9]* cases in \([0-9]*\) s$/\1/p' "$WORK/out-$k" | tail -n 1) s"
	done
	echo "=== vm-tests: ${KERNELS[*]} in $(($(date +%s) - START)) s ($JOBS at a time, -smp $SMP; per kernel: ${TIMES:-none booted})"
	echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
	# The crashes again, last: the end of a long log is what gets read.
	if ls "$WORK"/crash-* >/dev/null 2>&1; then
		echo "=== guests that stopped during a case (console from the first complaint on):"
		cat "$WORK"/crash-* | sed 's/^/    | /'
	fi
	[ $FAILED = 0 ]
}
main; exit
