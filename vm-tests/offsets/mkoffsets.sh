#!/bin/bash
# SPDX-License-Identifier: MIT
# The fixtures of the case offsets-pahole: for a test kernel without BTF,
# the offsets of the struct fields barebpf discovers, from pahole on
# DWARF of the same source and config (+ CONFIG_DEBUG_INFO, which moves
# no field). Only the objects whose DWARF holds the structs are built.
# usage: vm-tests/offsets/mkoffsets.sh LABEL [WORKDIR]
#   LABEL: 4.9 4.14 4.15 4.19 arm64-4.15 armv7-4.19 (the labels of run.sh)
#   env KERNELS: the test kernels' folders (default <repo>/../shared/kernels)
#       MIRRORS: where the git mirrors are, as OWNER+NAME/repo (default
#       /work/.mirror; the fetch of github:OWNER/NAME)
#       JOBS: make's -j (default 2)
# Writes vm-tests/offsets/LABEL.txt; WORKDIR (default /tmp/offsets-LABEL)
# holds the source tree and is deleted at the end (KEEP=1 keeps it).
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
read -r _ kdir arch cross mirror commit config patch <<<"$(awk -v l="$label" '$1 == l' <<<"$table")"
[ -n "${kdir:-}" ] || { echo "$0: no kernel labelled '$label' (labels: $(awk '{printf "%s ", $1}' <<<"$table"))" >&2; exit 2; }
[ "$cross" = - ] && cross=
kd=$KERNELS/$kdir
gitdir=$MIRRORS/$mirror/repo
[ -d "$gitdir" ] || { echo "$0: no mirror $gitdir: fetch github:${mirror/+//} first" >&2; exit 2; }
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
# IPv6's addresses where the kernel has IPv6 (none of these kernels)
grep -q '^CONFIG_IPV6=y' "$kd/$config" &&
	fields="$fields sock.__sk_common.skc_v6_daddr sock.__sk_common.skc_v6_rcv_saddr"

mk() { nice -n 19 make -s ARCH=$arch ${cross:+CROSS_COMPILE=$cross} "$@"; }
rm -rf "$work"; mkdir -p "$work/src"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
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
out=$here/$label.txt
tmp=$work/pahole
{
	echo "# $label: struct field offsets from pahole (the kernel's own answer, for the QEMU case offsets-pahole)"
	echo "# kernel: $(make -s kernelversion) ARCH=$arch, source github:${mirror/+//} $commit${patch#-}" |
		sed "s/ \($commit\)\(.\)/ \1, patch $kdir\/\2/"
	echo "# config: $kdir/$config md5 $(md5sum <"$kd/$config" | cut -d' ' -f1), changed only by: ${changed% }"
	echo "# ${cross}gcc: $(${cross}gcc --version | head -n 1), pahole $(pahole --version)"
	echo "# pahole -C STRUCT --expand_types OBJ ($objs); vm-tests/offsets/pahole-offsets.py reads offsets"
	echo "# made by: vm-tests/offsets/mkoffsets.sh $label"
	echo "# field offset size"
	for s in $(tr ' ' '\n' <<<"$fields" | cut -d. -f1 | sort -u); do
		for o in $objs; do
			pahole -C "$s" --expand_types "$o" >"$tmp.$s" 2>/dev/null && [ -s "$tmp.$s" ] && break
		done
		[ -s "$tmp.$s" ] || { echo "$0: struct $s is in none of $objs" >&2; exit 1; }
		python3 "$here/pahole-offsets.py" "$tmp.$s" $(tr ' ' '\n' <<<"$fields" | grep "^$s\.")
	done
} >"$out.new"
mv "$out.new" "$out"
echo "wrote $out" >&2
cat "$out"
