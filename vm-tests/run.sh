#!/usr/bin/env bash
# Whole-system tests of barebpf on real kernels in QEMU (software emulation).
#
#   vm-tests/run.sh BAREBPF [KERNEL...]      KERNEL: 4.15 5.10 6.1 (default: all)
#
# Per kernel: build an initramfs (busybox-static, BAREBPF and its tool
# symlinks, guest/ and cases/, the null_blk modules), boot it once, run every
# case in that boot and read one PASS/FAIL/SKIP line per case from the serial
# console. Ends with "N passed, N failed, N skipped"; exits non-zero on any
# FAIL. Kernels are fetched into vm-tests/cache/ (see README.md).
#
# Environment:
#   BAREBPF_KERNEL_415  the 4.15 kernel: its folder or its bzImage
#                       (default: <repo>/../shared/kernels/4.15)
#   VMTEST_SUITE        the folder of cases: cases (default), or bench for
#                       the cost benchmarks (make vm-bench: figures, no
#                       thresholds)
#   VMTEST_CASES        only the cases whose names match this grep -E regex
#   VMTEST_TIMEOUT      seconds one boot may take, cases included
#                       (default 60 + 15 per case: a boot is ~5 s, a case
#                       3-10 s under TCG; a hung case is stopped sooner)
#   VMTEST_CASE_TIMEOUT seconds one case may take (default 90)
#   VMTEST_MIRROR       Debian mirror for the kernels (default: the machine's)
#   VMTEST_OFFLINE=1    use only kernels already in the cache
#   VMTEST_CACHE        where kernels and console logs go (default vm-tests/cache)
#   VMTEST_VERBOSE=1    show every case's diagnostics, not only a FAIL's
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

usage() { echo "usage: $0 BAREBPF [4.15|5.10|6.1 ...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
BAREBPF=$1; shift
[ -x "$BAREBPF" ] || { echo "$0: $BAREBPF: not an executable" >&2; exit 2; }
BAREBPF=$(realpath "$BAREBPF")
KERNELS=("$@")
[ ${#KERNELS[@]} -gt 0 ] || KERNELS=(4.15 5.10 6.1)
for k in "${KERNELS[@]}"; do
	case $k in 4.15|5.10|6.1) ;; *) echo "$0: unknown kernel '$k'" >&2; usage ;; esac
done
for t in qemu-system-x86_64 cpio gzip; do
	command -v $t >/dev/null || { echo "$0: $t not found (see vm-tests/README.md)" >&2; exit 2; }
done
BUSYBOX=/bin/busybox
$BUSYBOX --list >/dev/null 2>&1 || { echo "$0: no $BUSYBOX (apt-get install busybox-static)" >&2; exit 2; }
if ! file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' && command -v file >/dev/null; then
	echo "$0: $BUSYBOX is not static (apt-get install busybox-static)" >&2; exit 2
fi

CASES=()
SUITE=${VMTEST_SUITE:-cases}
[ -d "$HERE/$SUITE" ] || { echo "$0: no suite '$SUITE' in $HERE" >&2; exit 2; }
for c in "$HERE/$SUITE"/*.sh; do
	n=$(basename "$c" .sh)
	[ -n "${VMTEST_CASES:-}" ] && ! grep -qE "${VMTEST_CASES}" <<<"$n" && continue
	CASES+=("$n")
done
[ ${#CASES[@]} -gt 0 ] || { echo "$0: no case matches '${VMTEST_CASES:-}'" >&2; exit 2; }
# Result lines each boot must print: the cases, then init's own check that
# the kernel logged no warning while they ran.
EXPECT=("${CASES[@]}" kernel-log)
# A case that needs more than its 15 s share says so in a line
# "# vmtest-timeout: SECS" (init gives it that long instead of CASE_TIMEOUT).
LONG=$(for n in "${CASES[@]}"; do sed -n 's/^# vmtest-timeout: \([0-9]*\)$/\1/p' "$HERE/$SUITE/$n.sh"; done |
	awk '{ s += $1 } END { print s + 0 }')
BOOT_TIMEOUT=${VMTEST_TIMEOUT:-$((60 + 15 * ${#CASES[@]} + LONG))}

WORK=$(mktemp -d /tmp/barebpf-vmtest.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# One copy for the whole run: a rebuild meanwhile does not mix binaries.
cp "$BAREBPF" "$WORK/barebpf" || exit 2
BAREBPF=$WORK/barebpf
TOOLS=$("$BAREBPF" --list-tools 2>/dev/null | tr '\n' ' ')
[ -n "$TOOLS" ] || echo "=== warning: '$BAREBPF --list-tools' printed nothing: no tool symlinks"

mkdir -p "$CACHE" "$LOGS"

# The BPF objects of the `run` cases (vm-tests/bpf/*.bpf.c), built like
# the Makefile builds ours.
BPFDIR=$WORK/bpf BPFWHY=
mkdir -p "$BPFDIR"
CLANG=${CLANG:-clang}
if ! command -v "$CLANG" >/dev/null; then
	BPFWHY="no $CLANG on the host to build vm-tests/bpf/*.bpf.c"
else
	for src in "$HERE"/bpf/*.bpf.c; do
		if ! "$CLANG" -target bpf -O2 -mcpu=v2 -g0 -D__TARGET_ARCH_x86 -I"$ROOT/bpf" \
			-Wall -Werror -Wno-unused-function -c "$src" \
			-o "$BPFDIR/$(basename "$src" .c).o" 2>"$WORK/clang.log"; then
			BPFWHY="vm-tests/bpf/$(basename "$src") does not build: $(head -n 1 "$WORK/clang.log")"
			break
		fi
	done
fi

PASSED=0 FAILED=0 SKIPPED=0
result() { # result LINE
	echo "$1"
	case $1 in
	PASS*) PASSED=$((PASSED + 1)) ;;
	FAIL*) FAILED=$((FAILED + 1)) ;;
	SKIP*) SKIPPED=$((SKIPPED + 1)) ;;
	esac
}
skip_kernel() { # skip_kernel LABEL WHY: every case (and the boot) SKIPs
	local c
	result "SKIP boot ($1): $2"
	for c in "${EXPECT[@]}"; do result "SKIP $c ($1): $2"; done
}

# ---- kernels ---------------------------------------------------------------
# prepare_* set KIMG (kernel image), KMODS (folder with configfs.ko and
# null_blk.ko, or "" when null_blk is built in), KAPPEND (extra kernel
# command line), KREL (expected uname -r, or a prefix), or WHY (cannot).

prepare_415() {
	local d=${BAREBPF_KERNEL_415:-$ROOT/../shared/kernels/4.15}
	KIMG=$d
	[ -d "$d" ] && KIMG=$d/bzImage
	if [ ! -f "$KIMG" ]; then
		WHY="no 4.15 kernel at $KIMG (set BAREBPF_KERNEL_415)"
		return 1
	fi
	KMODS=
	KAPPEND="null_blk.queue_mode=2 null_blk.irqmode=2 null_blk.completion_nsec=$NSEC"
	KREL=4.15.
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

# A private apt configuration for one suite of the mirror, apart from the
# machine's own (sources, lists, cache, status). Sets APTO.
private_apt() { # private_apt SUITE
	local a=$CACHE/apt-$1
	mkdir -p "$a/etc/preferences.d" "$a/state/lists/partial" "$a/cache/archives/partial"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) $1 main" \
		>"$a/etc/sources.list"
	APTO=(-o "Dir::Etc::SourceList=$a/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::Etc::PreferencesParts=$a/etc/preferences.d" -o Dir::Etc::Preferences=/dev/null
		-o "Dir::State=$a/state" -o Dir::State::status=/dev/null -o "Dir::Cache=$a/cache"
		-o APT::Architecture=amd64 -o Acquire::Languages=none -o Debug::NoLocking=1
		-o APT::Sandbox::User=root)
	apt-get "${APTO[@]}" -qq update >"$WORK/apt-update-$1.log" 2>&1
}

# The versioned image package the cloud-amd64 meta package points at.
cloud_pkg() { # cloud_pkg [apt options...]
	apt-cache "$@" depends linux-image-cloud-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9].*-cloud-amd64$/ { print $2; exit }'
}

# Download PKG with apt options and keep vmlinuz + the modules in
# $CACHE/LABEL/PKG/.
fetch_pkg() { # fetch_pkg LABEL PKG [apt options...]
	local label=$1 pkg=$2 dst=$CACHE/$1/$2 t m f; shift 2
	t=$WORK/fetch-$label
	rm -rf "$t"; mkdir -p "$t/x"
	(cd "$t" && apt-get "$@" -qq -o APT::Sandbox::User=root download "$pkg") >"$t/log" 2>&1 || {
		WHY="apt-get download $pkg failed: $(grep -E '^(E|W):' "$t/log" | head -n 1)"
		return 1
	}
	dpkg-deb -x "$t"/*.deb "$t/x" || { WHY="dpkg-deb -x $pkg failed"; return 1; }
	rm -rf "$dst.new"; mkdir -p "$dst.new"
	cp "$t"/x/boot/vmlinuz-* "$dst.new/vmlinuz" || { WHY="no boot/vmlinuz-* in $pkg"; return 1; }
	# loop is optional: only freeze-loop needs it (it SKIPs without)
	for m in configfs null_blk loop; do
		f=$(find "$t/x/lib/modules" -name "$m.ko*" | head -n 1)
		case $f in
		*.ko) cp "$f" "$dst.new/$m.ko" ;;
		*.ko.xz) xz -dc "$f" >"$dst.new/$m.ko" ;;
		*.ko.zst) zstd -qdc "$f" >"$dst.new/$m.ko" ;;
		*.ko.gz) gzip -dc "$f" >"$dst.new/$m.ko" ;;
		"") [ $m = loop ] && continue; WHY="no $m.ko in $pkg"; return 1 ;;
		*) WHY="no $m.ko in $pkg"; return 1 ;;
		esac || { WHY="cannot decompress $f"; return 1; }
	done
	ls "$t/x/lib/modules" | head -n 1 >"$dst.new/release"
	rm -rf "$dst" "$t"; mv "$dst.new" "$dst"
}

# prepare_debian LABEL SUITE USE_MACHINE_APT
prepare_debian() {
	local label=$1 suite=$2 pkg= dir= why=
	if [ "${VMTEST_OFFLINE:-0}" != 1 ]; then
		if [ "$3" = 1 ]; then
			# The machine's own apt: its lists name this suite already.
			pkg=$(cloud_pkg)
			case $pkg in
			*-cloud-amd64)
				[ -f "$CACHE/$label/$pkg/vmlinuz" ] || fetch_pkg "$label" "$pkg" || pkg= ;;
			*) pkg= ;;
			esac
			[ -n "$pkg" ] || why=${WHY:-"apt-cache finds no linux-image-cloud-amd64"}
		fi
		if [ -z "$pkg" ]; then
			if private_apt "$suite"; then
				pkg=$(cloud_pkg "${APTO[@]}")
				if [ -z "$pkg" ]; then
					why="no linux-image-cloud-amd64 in $suite on $(debian_mirror)$(grep -E '^(E|W):' "$WORK/apt-update-$suite.log" | head -n 1 | sed 's/^/: /')"
				elif [ ! -f "$CACHE/$label/$pkg/vmlinuz" ] && ! fetch_pkg "$label" "$pkg" "${APTO[@]}"; then
					why=$WHY; pkg=
				fi
			else
				why="apt-get update of $suite on $(debian_mirror) failed: $(grep -E '^(E|W):' "$WORK/apt-update-$suite.log" | head -n 1)"
			fi
		fi
		[ -n "$pkg" ] && dir=$CACHE/$label/$pkg
	fi
	if [ -z "$dir" ]; then
		# Offline, or the mirror failed: the newest kernel cached before.
		dir=$(ls -d "$CACHE/$label"/linux-image-* 2>/dev/null | grep -v '\.new$' | sort -V | tail -n 1)
		if [ -z "$dir" ] || [ ! -f "$dir/vmlinuz" ]; then
			WHY="cannot fetch Debian $suite's cloud kernel${why:+: $why}"
			return 1
		fi
		echo "=== $label: using cached $(basename "$dir")${why:+ ($why)}"
	fi
	KIMG=$dir/vmlinuz
	KMODS=$dir
	KAPPEND=
	KREL=$(cat "$dir/release")
}

# ---- one boot --------------------------------------------------------------
build_initramfs() { # build_initramfs LABEL OUT
	local d=$WORK/root-$1 a t
	rm -rf "$d"
	mkdir -p "$d"/{bin,dev,proc,sys,tmp,etc,vmtest/cases,vmtest/modules,vmtest/bpf}
	cp "$BUSYBOX" "$d/bin/busybox"
	cp "$BAREBPF" "$d/bin/barebpf"
	for t in $TOOLS; do ln -s barebpf "$d/bin/$t"; done
	for a in $($BUSYBOX --list); do
		[ -e "$d/bin/$a" ] || ln -s busybox "$d/bin/$a"
	done
	cp "$HERE/guest/init" "$d/init"
	cp "$HERE/guest/lib.sh" "$d/vmtest/lib.sh"
	for c in "${CASES[@]}"; do cp "$HERE/$SUITE/$c.sh" "$d/vmtest/cases/"; done
	[ -n "$KMODS" ] && cp "$KMODS"/*.ko "$d/vmtest/modules/"
	if [ -z "$BPFWHY" ]; then cp "$BPFDIR"/*.o "$d/vmtest/bpf/"; else echo "$BPFWHY" >"$d/vmtest/bpf/why"; fi
	cat >"$d/vmtest/config" <<-EOF
		LABEL=$1
		N=$N
		NSEC=$NSEC
		BUCKET_LO=$BUCKET_LO
		BUCKET_HI=$BUCKET_HI
		CASE_TIMEOUT=$CASE_TIMEOUT
		TOOLS="$TOOLS"
		VERBOSE=${VMTEST_VERBOSE:-0}
	EOF
	chmod +x "$d/init"
	(cd "$d" && find . | cpio -o -H newc --quiet | gzip -1) >"$2"
}

run_kernel() { # run_kernel LABEL
	local label=$1 log=$LOGS/$1.log initrd=$WORK/initrd-$1.gz t0 t1 rc rel c line
	KIMG= KMODS= KAPPEND= KREL= WHY=
	case $label in
	4.15) prepare_415 ;;
	5.10) prepare_debian 5.10 bullseye 0 ;;
	6.1) prepare_debian 6.1 bookworm 1 ;;
	esac || { skip_kernel "$label" "$WHY"; return; }
	build_initramfs "$label" "$initrd" || { result "FAIL boot ($label): cannot build the initramfs"; return; }
	echo "=== $label: booting $KIMG (timeout ${BOOT_TIMEOUT}s, ${#CASES[@]} cases)"
	t0=$(date +%s)
	timeout -k 5 "$BOOT_TIMEOUT" qemu-system-x86_64 -accel tcg -m 512 -smp 2 -nographic -no-reboot \
		-nodefaults -serial stdio -kernel "$KIMG" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 quiet $KAPPEND" </dev/null 2>&1 | tr -d '\r' | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' >"$log"
	rc=$?
	t1=$(date +%s)
	# (the firmware's terminal escapes may share the start marker's line)
	rel=$(sed -n 's/.*=== VMTEST START //p' "$log" | head -n 1)
	if [ -z "$rel" ]; then
		result "FAIL boot ($label): the kernel did not boot (no start marker; qemu exit $rc after $((t1 - t0)) s)"
		echo "    | last console lines ($log):"; tail -n 20 "$log" | sed 's/^/    | /'
		for c in "${EXPECT[@]}"; do result "FAIL $c ($label): not run, the kernel did not boot"; done
		return
	fi
	echo "=== $label: booted $rel; console log in $log"
	# Every case's line, in order, with the diagnostics under a FAIL.
	while IFS= read -r line; do
		case $line in
		"PASS "*|"FAIL "*|"SKIP "*)
			c=${line#* }; c=${c%% *}
			printf '%s\n' "${EXPECT[@]}" | grep -qxF "$c" && result "$line" ;;
		"    | "*) echo "$line" ;;
		esac
	done <"$log"
	for c in "${EXPECT[@]}"; do
		grep -qE "^(PASS|FAIL|SKIP) $c \\(" "$log" ||
			result "FAIL $c ($rel): no result (the guest stopped or timed out before it)"
	done
	if ! grep -q "^=== VMTEST END " "$log"; then
		result "FAIL boot ($rel): no end marker after $((t1 - t0)) s (timeout ${BOOT_TIMEOUT}s, qemu exit $rc)"
		echo "    | last console lines ($log):"; tail -n 20 "$log" | sed 's/^/    | /'
	elif [ "${rel#"$KREL"}" = "$rel" ]; then
		result "FAIL boot ($rel): expected a $KREL kernel"
	else
		echo "=== $label: ${#CASES[@]} cases in $((t1 - t0)) s"
		result "PASS boot ($rel)"
	fi
}

START=$(date +%s)
for k in "${KERNELS[@]}"; do run_kernel "$k"; done
echo "=== vm-tests: ${KERNELS[*]} in $(($(date +%s) - START)) s"
echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
[ $FAILED = 0 ]
