#!/bin/bash
# SPDX-License-Identifier: MIT
# The fixtures of the case offsets-pahole: for a test kernel without BTF,
# the offsets of the struct fields barebpf discovers, from pahole on DWARF.
# Two sources:
# - the 4.x kernels of ../shared/kernels: DWARF of the same source and
#   config (+ CONFIG_DEBUG_INFO, which moves no field); only the objects
#   whose DWARF holds the structs are built.
# - Debian's armv7 kernels (armv7-5.10, armv7-6.1, armv7-6.12): the
#   vmlinux of Debian's own linux-image-RELEASE-dbg package, of the same
#   version as the image vm-tests/run.sh boots (the image package
#   linux-image-armmp depends on in the suite, looked up in run.sh's
#   private apt configuration of it, $VMTEST_CACHE/apt-SUITE-armhf: run
#   vm-tests/run.sh on the label once first). Only the vmlinux is taken
#   from the package (streamed out, 0.6-0.7 GB download), the config from
#   the image package's /boot/config-RELEASE; both are deleted at the end.
#   The fixture names the kernel release (uname -r): offsets-pahole SKIPs
#   on another one (the mirror has moved on: run this again).
# usage: vm-tests/offsets/mkoffsets.sh LABEL [WORKDIR]
#   LABEL: 4.9 4.14 4.15 4.19 arm64-4.15 armv7-4.19 armv7-5.10 armv7-6.1
#       armv7-6.12 (the labels of run.sh)
#   env KERNELS: the test kernels' folders (default <repo>/../shared/kernels)
#       MIRRORS: where the git mirrors are, as OWNER+NAME/repo (default
#       /work/.mirror; the fetch of github:OWNER/NAME)
#       JOBS: make's -j (default 2)
#       VMTEST_CACHE: run.sh's cache (default vm-tests/cache), Debian's only
# Writes vm-tests/offsets/LABEL.txt; WORKDIR (default /tmp/offsets-LABEL)
# holds the source tree or the packages and is deleted at the end (KEEP=1
# keeps it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
KERNELS=${KERNELS:-$repo/../shared/kernels}
MIRRORS=${MIRRORS:-/work/.mirror}
label=${1:?usage: $0 LABEL [WORKDIR]}
work=${2:-/tmp/offsets-$label}

# label  kdir  ARCH  CROSS_COMPILE  OWNER+NAME  commit  config  patch
table="
4.9        4.9        x86_64 -                   eugene-rom+linux-4.9.337-sbc2440v4    bcbb043ad48bdc93f62ae44fb8a6a5f90843c9ad config-4.9.337       -
4.14       4.14       x86_64 -                   whitehax0r+PS4-kernel-4.14.280-baikal 69ea7f580f3439937b950971d83c59118b8e0699 config-4.14.280      -
4.15       4.15       x86_64 -                   xieenze1022+linux-4.15.11             1a7a3c162f0a31656e78d001454ba3ebef94408a config-4.15.11       linux-4.15.11-gcc12-binutils2.40.patch
4.19       4.19       x86_64 -                   whitehax0r+PS4-Kernel-4.19.255-baikal 0f0542cc102d194befcd441b42edfb7b2b9d987a config-4.19.255      -
arm64-4.15 4.15-arm64 arm64  aarch64-linux-gnu-   xieenze1022+linux-4.15.11             1a7a3c162f0a31656e78d001454ba3ebef94408a config-4.15.11-arm64 linux-4.15.11-arm64-dtc-yylloc.patch
armv7-4.19 4.19-armv7 arm    arm-linux-gnueabihf- whitehax0r+PS4-Kernel-4.19.255-baikal 0f0542cc102d194befcd441b42edfb7b2b9d987a config-4.19.255      -
"
# label  suite  Debian architecture  flavour (as run.sh's KERNEL_TABLE)
debian="
armv7-5.10 bullseye armhf armmp
armv7-6.1  bookworm armhf armmp
armv7-6.12 trixie   armhf armmp
"
read -r _ kdir arch cross mirror commit config patch <<<"$(awk -v l="$label" '$1 == l' <<<"$table")"
read -r _ suite debarch flavour <<<"$(awk -v l="$label" '$1 == l' <<<"$debian")"
[ -n "${kdir:-}${suite:-}" ] || { echo "$0: no kernel labelled '$label' (labels: $(awk 'NF {printf "%s ", $1}' <<<"$table$debian"))" >&2; exit 2; }
command -v pahole >/dev/null || { echo "$0: pahole is not installed (apt-get install dwarves)" >&2; exit 2; }

# The fields barebpf discovers where there is no BTF, and the objects
# whose DWARF holds their structs.
fields="sock.__sk_common.skc_daddr sock.__sk_common.skc_rcv_saddr
sock.__sk_common.skc_dport sock.__sk_common.skc_num
sock.__sk_common.skc_family sock.__sk_common.skc_state
tcp_sock.bytes_acked tcp_sock.bytes_received rq.nr_running
task_struct.exit_code task_struct.tgid task_struct.real_parent
task_struct.start_time kiocb.ki_filp kiocb.ki_pos file.f_path.dentry
dentry.d_name.name file.f_op sk_buff.head sk_buff.network_header
sk_buff.transport_header sk_buff.sk"
objs="kernel/sched/core.o net/ipv4/tcp.o fs/read_write.o"
# ipv6 CONFIG: IPv6's addresses where the kernel has IPv6 built in
ipv6() {
	grep -q '^CONFIG_IPV6=y' "$1" &&
		fields="$fields sock.__sk_common.skc_v6_daddr sock.__sk_common.skc_v6_rcv_saddr"
	true
}
# field_lines OBJ...: "PATH OFFSET SIZE" of each field, each struct from
# the first OBJ whose DWARF has it
field_lines() {
	local s o tmp=$work/pahole
	for s in $(tr ' ' '\n' <<<"$fields" | cut -d. -f1 | sort -u); do
		for o in "$@"; do
			pahole -F dwarf -C "$s" --expand_types "$o" >"$tmp.$s" 2>/dev/null && [ -s "$tmp.$s" ] && break
		done
		[ -s "$tmp.$s" ] || { echo "$0: struct $s is in none of $*" >&2; return 1; }
		python3 "$here/pahole-offsets.py" "$tmp.$s" $(tr ' ' '\n' <<<"$fields" | grep "^$s\.") || return 1
	done
}
out=$here/$label.txt
rm -rf "$work"; mkdir -p "$work"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

# Debian's kernels: the image run.sh boots, its -dbg package's vmlinux
if [ -n "${suite:-}" ]; then
	cache=${VMTEST_CACHE:-$repo/vm-tests/cache}
	a=$cache/apt-$suite-$debarch
	[ -r "$a/etc/sources.list" ] || { echo "$0: no apt configuration $a: run vm-tests/run.sh on $label once first (with VMTEST_CACHE=$cache)" >&2; exit 2; }
	# run.sh's private_apt
	APTO=(-o "Dir::Etc::SourceList=$a/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::Etc::PreferencesParts=$a/etc/preferences.d" -o Dir::Etc::Preferences=/dev/null
		-o "Dir::State=$a/state" -o Dir::State::status=/dev/null -o "Dir::Cache=$a/cache"
		-o APT::Architecture=$debarch -o APT::Architectures=$debarch -o Acquire::Languages=none
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	apt-get "${APTO[@]}" -qq update >"$work/apt.log" 2>&1 ||
		{ cat "$work/apt.log" >&2; echo "$0: apt-get update of $suite ($debarch) failed" >&2; exit 1; }
	# run.sh's cloud_pkgs: the image package the flavour's meta package names
	img=$(apt-cache "${APTO[@]}" depends "linux-image-$flavour" 2>/dev/null |
		awk -v f="$flavour" '$1 == "Depends:" && $2 ~ "^linux-image-[0-9].*-" f "$" { print $2; exit }')
	[ -n "$img" ] || { echo "$0: no linux-image-$flavour in $suite" >&2; exit 1; }
	ver() { apt-cache "${APTO[@]}" show "$1" 2>/dev/null | awk '$1 == "Version:" && v == "" { v = $2 } END { print v }'; }
	iv=$(ver "$img"); dv=$(ver "$img-dbg")
	[ -n "$dv" ] || { echo "$0: no $img-dbg in $suite" >&2; exit 1; }
	[ "$iv" = "$dv" ] || { echo "$0: $img is $iv, $img-dbg $dv: not the same kernel (try again later)" >&2; exit 1; }
	echo "downloading $img $iv and $img-dbg $dv" >&2
	(cd "$work" && apt-get "${APTO[@]}" -qq download "$img" "$img-dbg") >"$work/dl.log" 2>&1 ||
		{ cat "$work/dl.log" >&2; echo "$0: apt-get download $img $img-dbg failed" >&2; exit 1; }
	mkdir -p "$work/x"
	# only the config and the vmlinux, streamed out of the packages
	dpkg-deb --fsys-tarfile "$work/${img}_"*.deb | tar -x -C "$work/x" --wildcards './boot/config-*'
	rm -f "$work/${img}_"*.deb
	dpkg-deb --fsys-tarfile "$work/$img-dbg_"*.deb | tar -x -C "$work/x" --wildcards '*/vmlinux-*'
	rm -f "$work/$img-dbg_"*.deb
	cfg=$(ls "$work"/x/boot/config-* | head -n 1)
	rel=${cfg##*/config-}
	vmlinux=$(find "$work/x" -name "vmlinux-$rel" | head -n 1)
	[ -n "$vmlinux" ] || { echo "$0: no vmlinux-$rel in $img-dbg" >&2; exit 1; }
	ipv6 "$cfg"
	dw=$(python3 "$here/dwarf-versions.py" "$vmlinux")
	{
		echo "# $label: struct field offsets from pahole (the kernel's own answer, for the QEMU case offsets-pahole)"
		echo "# kernel: $rel ARCH=arm, Debian $suite $debarch $img $iv"
		echo "# release: $rel (uname -r; offsets-pahole skips on another)"
		echo "# DWARF $dw: vmlinux-$rel of $img-dbg $dv; config: /boot/config-$rel of $img, md5 $(md5sum <"$cfg" | cut -d' ' -f1)"
		echo "# pahole $(pahole --version) -F dwarf -C STRUCT --expand_types vmlinux-$rel; vm-tests/offsets/pahole-offsets.py reads offsets"
		echo "# made by: vm-tests/offsets/mkoffsets.sh $label"
		echo "# field offset size"
		field_lines "$vmlinux"
	} >"$out.new" || { rm -f "$out.new"; exit 1; }
	rm -rf "$work/x"
	mv "$out.new" "$out"
	echo "wrote $out" >&2
	cat "$out"
	exit 0
fi

[ "$cross" = - ] && cross=
kd=$KERNELS/$kdir
gitdir=$MIRRORS/$mirror/repo
[ -d "$gitdir" ] || { echo "$0: no mirror $gitdir: fetch github:${mirror/+//} first" >&2; exit 2; }
ipv6 "$kd/$config"
mk() { nice -n 19 make -s ARCH=$arch ${cross:+CROSS_COMPILE=$cross} "$@"; }
mkdir -p "$work/src"
echo "exporting $commit from $gitdir" >&2
# the snapshots lack blobs under asic_reg (amdgpu; DRM is off): git
# archive names one there, and tar gets the rest
git --git-dir="$gitdir" archive "$commit" -- . ':(exclude)drivers/gpu/drm/amd/include/asic_reg' 2>/dev/null |
	tar -x -C "$work/src" || true
[ -f "$work/src/Makefile" ] && [ -f "$work/src/kernel/sched/core.c" ] || { echo "$0: the export of $commit failed" >&2; exit 1; }
cd "$work/src"
[ "$patch" = - ] || patch -s -p1 <"$kd/$patch"
cp "$kd/$config" .config
mk olddefconfig
cp .config "$work/config.orig"
./scripts/config --enable DEBUG_INFO --disable DEBUG_INFO_REDUCED \
	--disable DEBUG_INFO_SPLIT
mk olddefconfig
# nothing but debug options changed
changed=$(diff "$work/config.orig" .config | sed -n 's/^> //p' | tr '\n' ' ' || true)
extra=$(diff "$work/config.orig" .config | grep '^[<>]' |
	grep -vE 'CONFIG_(DEBUG_INFO[A-Z0-9_]*|GDB_SCRIPTS|DEBUG_KERNEL_DC|PAHOLE_HAS[A-Z_]*)[= ]' || true)
[ -z "$extra" ] || { echo "$0: CONFIG_DEBUG_INFO changed more than debug options:" >&2; echo "$extra" >&2; exit 1; }
echo "building $objs (ARCH=$arch)" >&2
mk -j${JOBS:-2} prepare >"$work/build.log" 2>&1 &&
	mk -j${JOBS:-2} $objs >>"$work/build.log" 2>&1 ||
	{ tail -n 20 "$work/build.log" >&2; echo "$0: the build failed (above)" >&2; exit 1; }
{
	echo "# $label: struct field offsets from pahole (the kernel's own answer, for the QEMU case offsets-pahole)"
	echo "# kernel: $(make -s kernelversion) ARCH=$arch, source github:${mirror/+//} $commit${patch#-}" |
		sed "s/ \($commit\)\(.\)/ \1, patch $kdir\/\2/"
	echo "# config: $kdir/$config md5 $(md5sum <"$kd/$config" | cut -d' ' -f1), changed only by: ${changed% }"
	echo "# ${cross}gcc: $(${cross}gcc --version | head -n 1), pahole $(pahole --version)"
	echo "# pahole -C STRUCT --expand_types OBJ ($objs); vm-tests/offsets/pahole-offsets.py reads offsets"
	echo "# made by: vm-tests/offsets/mkoffsets.sh $label"
	echo "# field offset size"
	field_lines $objs
} >"$out.new" || { rm -f "$out.new"; exit 1; }
mv "$out.new" "$out"
echo "wrote $out" >&2
cat "$out"
