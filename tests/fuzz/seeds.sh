#!/bin/sh
# Make the seed corpora of tests/fuzz/corpus/<harness> anew from this
# machine and the build (run as root after `make`, from the top of the
# tree; needs gcc and python3). The corpora are kept in the tree, small
# (under 1 MiB in all): run this only to refresh them, then look at what
# changed before committing it.
set -eu
o=${O:-build}
c=tests/fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$c"
mkdir -p "$c/obj" "$c/elfsyms" "$c/kallsyms" "$c/tpformat" "$c/kver" \
	"$c/perfbuf" "$c/procfs" "$c/kprobe" "$c/btf" "$c/lz" "$c/tracespec" \
	"$c/xz" "$c/ldcache" "$c/elflookup" "$c/usdt"

# BPF objects: every embedded one, the test ones (bad ones too: they reach
# the error paths), and a small generated one with overlapping maps.
for f in "$o"/bpf/*.bpf.o "$o"/tests/bpf/*.bpf.o; do
	case $f in *bad_big*) continue ;; esac # 33 KiB of unrolled code
	cp "$f" "$c/obj/"
done
"$o/fuzz/mkbigobj" 4 20 2 4 3 >"$c/obj/gen_small.o"
# .BTF sections of the libbpf-style test objects, for the BTF reader
for f in "$o"/tests/bpf/btf_*.bpf.o; do
	llvm-objcopy --dump-section .BTF="$c/btf/$(basename "$f" .bpf.o).BTF" \
		"$f" "$tmp/discard"
done
"$o/fuzz/mkbigobj" 3 8 1 2 1 >"$c/obj/gen_overlap.o"
# The embedded objects as they are stored (compressed), for lz_decode.
cp "$o"/bpf/*.bpf.lz "$c/lz/"

# The vDSO (ET_DYN with .dynsym and the version note), for both ELF readers.
python3 - "$c/elfsyms/vdso.so" <<'PY'
import sys
for line in open("/proc/self/maps"):
    if line.rstrip().endswith("[vdso]"):
        lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
        with open("/proc/self/mem", "rb") as m:
            m.seek(lo)
            open(sys.argv[1], "wb").write(m.read(hi - lo))
PY
cp "$c/elfsyms/vdso.so" "$c/kver/vdso.so"
# Small real binaries: static with .symtab, a shared object with both
# tables, and a stripped PIE (.dynsym only).
cat >"$tmp/t.c" <<'C'
int twice(int x) { return 2 * x; }
static int local_fn(int x) { return x + 1; }
int __attribute__((weak)) weak_fn(int x) { return local_fn(x); }
void _start(void) { for (;;) weak_fn(twice(1)); }
C
gcc -Os -nostdlib -static -o "$c/elfsyms/static_symtab" "$tmp/t.c"
gcc -Os -nostdlib -shared -fPIC -o "$c/elfsyms/shared.so" "$tmp/t.c"
cp /usr/bin/true "$c/elfsyms/true_stripped_pie"
# ELF32: the same as a 32-bit ARM board's programs (Thumb code), static
# with .symtab and a shared object with both tables.
arm-linux-gnueabihf-gcc -Os -mthumb -nostdlib -static \
	-o "$c/elfsyms/arm32_static_symtab" "$tmp/t.c"
arm-linux-gnueabihf-gcc -Os -mthumb -nostdlib -shared -fPIC \
	-o "$c/elfsyms/arm32_shared.so" "$tmp/t.c"
# MiniDebugInfo: stripped, the functions .dynsym lacks in .gnu_debugdata
# (an xz-compressed ELF with .symtab), as Fedora's find-debuginfo does it;
# both classes. mdi SRC OUT [TOOL-PREFIX]
mdi() {
	d=$(mktemp -d) p=${3:-}
	${p}gcc -Os -nostdlib -shared -fPIC -o "$d/full" "$1"
	${p}nm -D "$d/full" --format=posix --defined-only | awk '{ print $1 }' |
		sort >"$d/dyn"
	${p}nm "$d/full" --format=posix --defined-only |
		awk '$2 ~ /^[TtD]$/ { print $1 }' | sort >"$d/funcs"
	comm -13 "$d/dyn" "$d/funcs" >"$d/keep"
	${p}objcopy --only-keep-debug "$d/full" "$d/debug"
	${p}objcopy -S --remove-section .comment --keep-symbols="$d/keep" \
		"$d/debug" "$d/mini"
	xz --format=xz --check=crc64 -c "$d/mini" >"$d/mini.xz"
	cp "$d/full" "$2"
	${p}strip --strip-all -R .comment "$2"
	${p}objcopy --add-section .gnu_debugdata="$d/mini.xz" "$2"
	rm -rf "$d"
}
sed 's/^static int local_fn/__attribute__((noinline)) &/' "$tmp/t.c" >"$tmp/m.c"
mdi "$tmp/m.c" "$c/elfsyms/minidebuginfo.so"
mdi "$tmp/m.c" "$c/elfsyms/arm32_minidebuginfo.so" arm-linux-gnueabihf-

# .xz streams as MiniDebugInfo has them, for xz_decode: text and code with
# each check; without a check (so that changed LZMA2 data reaches the end
# of its block), other lc/lp/pb, several blocks, stored chunks.
head -c 3000 loader/user/elfsyms.c >"$tmp/text"
head -c 3000 /usr/bin/true >"$tmp/bin"
xz --format=xz --check=crc64 -6 -c "$tmp/text" >"$c/xz/text_crc64.xz"
xz --format=xz --check=crc32 -0 -c "$tmp/bin" >"$c/xz/bin_crc32.xz"
xz --format=xz --check=none -9e -c "$tmp/text" >"$c/xz/text_none.xz"
xz --format=xz --check=none --lzma2=preset=6,lc=1,lp=2,pb=1 -c "$tmp/bin" \
	>"$c/xz/bin_none_lclppb.xz"
xz --format=xz --check=none --block-size=1000 -c "$tmp/text" \
	>"$c/xz/text_none_blocks.xz"
head -c 2000 /dev/urandom | xz --format=xz --check=none -c \
	>"$c/xz/random_stored.xz"

# /proc/kallsyms: its start and its end (module symbols, "[module]").
head -n 120 /proc/kallsyms >"$c/kallsyms/head"
tail -n 60 /proc/kallsyms >"$c/kallsyms/tail"
printf '0000000000000000 T _stext\n0000000000000000 t hidden\n' \
	>"$c/kallsyms/kptr_restrict"

# Tracepoint formats of this kernel.
t=/sys/kernel/tracing/events
for e in block/block_rq_issue block/block_bio_queue sched/sched_switch \
	syscalls/sys_enter_getppid; do
	cp "$t/$e/format" "$c/tpformat/$(basename "$e")"
done

# Version strings: this machine's and the distributions' forms.
cat /proc/version >"$c/kver/proc_version"
uname -r >"$c/kver/uname_r"
uname -v >"$c/kver/uname_v"
printf 'Ubuntu 4.15.0-112.113-generic 4.15.18\n' >"$c/kver/ubuntu_signature"
printf '#1 SMP Debian 4.19.98-1 (2020-01-26)\n' >"$c/kver/debian_4.19"
printf '#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)\n' \
	>"$c/kver/debian_6.1"

# Perf rings (the harness's input: u64 tail, u32 head - tail, the ring):
# samples, a lost record, a record that wraps past the end of the ring.
python3 - "$c/perfbuf" <<'PY'
import struct, sys
d = sys.argv[1]
def sample(data):
    raw = ((4 + len(data) + 7) & ~7) - 4
    return struct.pack("<IHHI", 9, 0, 12 + raw, raw) + data + b"\0" * (raw - len(data))
def lost(n):
    return struct.pack("<IHHQQ", 2, 0, 24, 7, n)
def ring(tail, recs, size):
    buf = bytearray(size)
    for i, b in enumerate(recs):
        buf[(tail + i) % size] = b
    return struct.pack("<QI", tail, len(recs)) + bytes(buf)
recs = sample(b"hello") + lost(3) + sample(bytes(range(40)))
open(d + "/plain", "wb").write(ring(0, recs, 256))
open(d + "/wrapped", "wb").write(ring(256 * 5 + 200, recs, 256))
open(d + "/counter_wraps", "wb").write(ring(2**64 - 16, recs, 256))
PY

# /proc/PID/maps and CPU lists.
cat /proc/self/maps >"$c/procfs/maps"
cat /sys/devices/system/cpu/possible /sys/devices/system/cpu/online \
	>"$c/procfs/cpus"
printf '0-3,5,7-8\n0\n8191\n' >"$c/procfs/cpu_lists"

# kprobe_events and kprobe_profile as barebpf and other tools leave them;
# text symbols in available_filter_functions form ("name [module]").
cat >"$c/kprobe/events" <<'TXT'
p:barebpf_812_4026531836/p_blk_mq_start_request_0 blk_mq_start_request
r128:barebpf_812_4026531836/r_blk_queue_enter_1 blk_queue_enter
p:barebpf_77/p_vfs_read_0 vfs_read
p:kprobes/myprobe do_sys_open dfd=%ax filename=%dx
r:perf_probe/vfs_write__return vfs_write
TXT
cat >"$c/kprobe/profile" <<'TXT'
  p_blk_mq_start_request_0                                 1022               0
  barebpf_812_4026531836/r_blk_queue_enter_1                 17               3
TXT
awk '$2 ~ /^[tT]$/ { print $4 ? $3 " " $4 : $3 }' /proc/kallsyms |
	grep -E '^(blk_|vfs_)' | head -n 200 >"$c/kprobe/filter_functions"
# trace's probes (the fields are the harness's own format), and a probe
# followed by a record (struct trace_event of bpf/trace.h) after a newline.
t=$c/tracespec
printf '%s' 'do_sys_open' >"$t/bare"
printf '%s' 'r::do_sys_open (retval < 0) "failed: %d", retval' >"$t/retval"
printf '%s' 'p::vfs_read (arg3 > 20000 && $pid != 1) "read %d bytes %s", arg3, arg2@user' >"$t/filter_and"
printf '%s' 't:syscalls:sys_enter_openat (STRCMP("/etc/passwd", args->filename) || ((args->flags & 0x40) == 0x40)) "%s %x %-5d %c", args->filename, args->flags, args->dfd, args->small' >"$t/tp_or"
printf '%s' 't:x:y "%s %s %s %K %U %p %hd %llx", args->comm, args->name, args->rel, args->dfd, args->dfd, args->filename, (short)args->dfd, args->__syscall_nr' >"$t/tp_strings"
printf '%s' 'p::__x64_sys_openat (!STRCMP("x", arg2) && (int)arg1 == -100) "%s %d", arg2, arg1' >"$t/syscall"
printf '%s' 'p:c:malloc "%d", arg1->f' >"$t/bad"
printf '%s' 'p::tcp_v4_connect(const struct sock *sk, int len) (sk->sk_state == 1 && len) "%d %u", sk->__sk_common.skc_dport, ((struct sock *)arg1)->a.b' >"$t/fields"
printf '%s' 't:sock:inet_sock_set_state (((struct sock *)args->skaddr)->sk_state == 7) "%d", ((struct sock *)retval)->x' >"$t/field_casts"
python3 - "$t/record" <<'PY'
import struct, sys
spec = b't:x:y "%s|%d|%c|%s", args->name, args->dfd, args->small, args->comm'
hdr = struct.pack("<QQQIIIIIIii16s", 1000, 0, 0, 10, 11, 0, 0, 1, 0, -1, -1, b"proc")
vals = struct.pack("<8Q", 0x00050030, (1 << 64) - 100, 0x41, 0, 0, 0, 0, 0)
rets = struct.pack("<8i", 6, 0, 0, 17, 0, 0, 0, 0)
strs = b"hello\x00".ljust(80, b"\x00") + b"comm\tname\n".ljust(16, b"\x00")
open(sys.argv[1], "wb").write(spec + b"\n" + hdr + vals + rets + strs)
PY
du -sh "$c"

# the uprobe lookup: the same files as elfsyms, and a 32-bit ARM one
cp "$c/elfsyms"/* "$c/elflookup/"
printf 'int f(int x) { return x + 1; }\nint _start(void) { return f(1); }\n' >"$tmp/a.c"
arm-linux-gnueabihf-gcc -static -mthumb -Os -nostdlib -o "$c/elflookup/arm32_thumb" "$tmp/a.c" 2>/dev/null || true

# USDT notes: the uprobe test program (tests/tools/sdt.h's notes) for this
# host, and for aarch64 and 32-bit ARM where a cross compiler is there;
# argument strings of each architecture
strip -o "$c/usdt/ucalls" "$o/tests/ucalls"
aarch64-linux-musl-gcc -static -O1 -fno-inline -s -o "$c/usdt/ucalls_arm64" \
	tests/tools/ucalls.c 2>/dev/null || true
arm-linux-musleabihf-gcc -static -marm -O1 -fno-inline -s -o "$c/usdt/ucalls_arm32" \
	tests/tools/ucalls.c 2>/dev/null || true
printf '%s' '-4@%edi 8@-16(%rbp) 4@$5 8@(%rax,%rdx,8) -2@%di' >"$c/usdt/args_x86"
printf '%s' '-4@x0 8@[x1, 8] 8@[sp] -4@7' >"$c/usdt/args_arm64"
printf '%s' '-8@16(%rsp,%rbp,8) -4@-8(%rbx,%rcx) 8@(%rax,%rdx,8)' >"$c/usdt/args_x86_sib"
printf '%s' '-8@[x2, x20, lsl 3] 4@[x1, x2]' >"$c/usdt/args_arm64_idx"
printf '%s' '4@r0 -4@[fp, #8] 4@#5 8@a0 -8@-88(s0)' >"$c/usdt/args_arm_rv"

# ld.so.cache: this host's (new format), and the old format alone and
# followed by the new one (glibc before 2.32)
[ -f /etc/ld.so.cache ] && cp /etc/ld.so.cache "$c/ldcache/host"
python3 - "$c/ldcache" <<'PY'
import struct, sys
ents = [(0x0303, b"libc.so.6", b"/lib/x86_64-linux-gnu/libc.so.6"),
        (0x0003, b"libc.so.6", b"/lib32/libc.so.6"),
        (0x0a03, b"libm.so.6", b"/lib/aarch64-linux-gnu/libm.so.6")]
strs = old = b""
for f, k, v in ents:
    ko = len(strs); strs += k + b"\0"; vo = len(strs); strs += v + b"\0"
    old += struct.pack("<iII", f, ko, vo)
img = b"ld.so-1.7.0\0" + struct.pack("<I", len(ents)) + old + strs
open(sys.argv[1] + "/old_only", "wb").write(img)
img += b"\0" * (-len(img) % 8)
nstr = nents = b""
base = 48 + 24 * len(ents)
for f, k, v in ents:
    ko = base + len(nstr); nstr += k + b"\0"; vo = base + len(nstr); nstr += v + b"\0"
    nents += struct.pack("<iIIIQ", f, ko, vo, 0, 0)
new = (b"glibc-ld.so.cache1.1" + struct.pack("<IIB3xI12x", len(ents), len(nstr), 0, 0)
       + nents + nstr)
open(sys.argv[1] + "/old_and_new", "wb").write(img + new)
PY
