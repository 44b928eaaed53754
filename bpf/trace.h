/* SPDX-License-Identifier: MIT */
/*
 * trace: what crosses between bpf/trace.bpf.c and the tool.
 *
 * One program serves every probe: the tool compiles a probe's spec
 * ('p::vfs_read (arg3 > 100) "%d", arg3') into load-time constants and
 * loads a copy of the program per probe (obj_prog_load_copy). No code is
 * generated: the program reads up to TRACE_NSLOTS values, each described
 * by constants (where it lies, how wide, whether it points to a string),
 * tests up to TRACE_NTERMS conditions on them, and sends one record.
 *
 * Constants of one slot i (s<i>_...):
 *   base    TRACE_BASE_*: 0 leaves the slot unused
 *   off     offset of the value from the base
 *   size    bytes to read there (1, 2, 4, 8)
 *   ext1    the value's own type, ext2 a cast: TRACE_EXT(size, signed)
 *   str     TRACE_STR_*: also read the string the value leads to
 *   stroff  where in the record's str[] the string goes, strsize its room
 *   strbase TRACE_STR_LOC: the offset the __data_loc value is counted from
 *   zero    1: clear 64 bytes at stroff first (a STRCMP compares them all)
 *   disp    TRACE_BASE_UMEM: added to the register's value
 *   idx     TRACE_BASE_UMEM: 1 + the offset in ctx of an index register
 *           whose value << shift is added too (x86's (%rax,%rdx,8)); 0 none
 *   dref    0, or 1 + an offset: the value at base + off is a kernel
 *           pointer (an unsigned long), and the slot reads size bytes at
 *           it + dref - 1 (trace's sk->sk_state)
 * Constants of one condition j (f<j>_...):
 *   op      TRACE_OP_*: 0 leaves it unused; neg 1 negates it
 *   slot    the value it tests; mask ANDed to it first; k the number
 *   valoff  where in the record that value is (trace_kprobe_old)
 *   slen    STRCMP's string with its NUL, in bytes (trace_kprobe_old)
 *   stroff  TRACE_OP_STREQ: the slot's string; w0..w7 the string compared
 *           with, 8 bytes a word, little-endian, zero-padded
 * Per probe: probe_id (in the record), rec_size (bytes sent: see
 * struct trace_event), is_kprobe, want_cpu (1: a value or condition reads
 * $cpu; else the reader takes the CPU from the ring the record came in),
 * regs_off (TRACE_BASE_REGS: where the syscall wrapper's pt_regs pointer
 * lies), filter_or (0: every condition must hold; 1: one suffices).
 * Shared: filter_tgid, filter_tid, self_tgid (0: none), kstack, ustack,
 * split_helpers (1: the kernel has bpf_probe_read_{user,kernel}_str),
 * filter_dev (see taskdev.h).
 */
#ifndef BAREBPF_TRACE_H
#define BAREBPF_TRACE_H

#define TRACE_NSLOTS 8
#define TRACE_NTERMS 4
/* STRCMP compares 64 bytes: a string of up to 62 characters, its NUL and
 * the byte after, so that a longer string read into the room differs. */
#define TRACE_STRCMP_WORDS 8
#define TRACE_STRCMP_MAX (TRACE_STRCMP_WORDS * 8 - 2)
/* room for strings: TRACE_NSLOTS of at most TRACE_STR_MAX bytes */
#define TRACE_STR_MAX 256
#define TRACE_STR_AREA (TRACE_NSLOTS * TRACE_STR_MAX)

/*
 * Two stack maps, used in turn (the one in stack_gen): a stack map only
 * fills, and then new stacks collide (EEXIST) for the rest of the run. The
 * tool switches maps when the current one fills up, and empties a map
 * before it comes back, by when the events that name its stacks are read.
 */
#define TRACE_STACK_ENTRIES 4096
#define TRACE_COMM_LEN 16

/* Where a value lies. */
#define TRACE_BASE_NONE 0
#define TRACE_BASE_CTX 1  /* the program's context: pt_regs or the record */
#define TRACE_BASE_REGS 2 /* the pt_regs a syscall wrapper was passed */
#define TRACE_BASE_REC 3  /* our own record: tgid, tid, uid, gid, cpu */
#define TRACE_BASE_CONST 4 /* no read: the value is off itself (a USDT
			    * argument the compiler knew: 4@$5) */
#define TRACE_BASE_UMEM 5  /* user memory at the register at ctx + off,
			    * plus disp (a USDT argument: 8@-16(%rbp)) */

/* The string a value leads to. */
#define TRACE_STR_NONE 0
#define TRACE_STR_KPTR 1   /* the value points to it: kernel memory first */
#define TRACE_STR_UPTR 2   /* the value points to it: user memory first */
#define TRACE_STR_INLINE 3 /* it is where the value lies (char name[16]) */
#define TRACE_STR_LOC 4    /* __data_loc, __rel_loc: at ctx + strbase +
			    * (v & 0xffff) */

/* Conditions: value (masked) against k, as 64-bit numbers, signed or not:
 * the tool makes mask and k so that this is C's comparison in the common
 * type of the value and the number (see term_types in trace_prog.c). */
#define TRACE_OP_NONE 0
#define TRACE_OP_EQ 1
#define TRACE_OP_LTS 2
#define TRACE_OP_LES 3
#define TRACE_OP_LTU 4
#define TRACE_OP_LEU 5
#define TRACE_OP_STREQ 6

/* Sign or zero extension from `size` bytes: the shift, and the sign. */
#define TRACE_EXT(size, is_signed) ((64 - 8 * (size)) | ((is_signed) << 7))
#define TRACE_EXT_SHIFT(e) ((e) & 63)
#define TRACE_EXT_SIGNED(e) (((e) >> 7) & 1)

/* Counters (per-CPU array): events handed to bpf_perf_event_output. */
#define TRACE_CNT_EMITTED 0
#define TRACE_NCOUNTERS 1

/*
 * The record's size; that of its head (what every probe sends), of what
 * a kprobe sends with no values, and of what precedes str[].
 */
#define TRACE_EVENT_SIZE 4096
#define TRACE_EVENT_HEAD (44 + TRACE_COMM_LEN)
#define TRACE_EVENT_VALS 80
#define TRACE_EVENT_FIXED (TRACE_EVENT_VALS + 12 * TRACE_NSLOTS)

/*
 * One event. No implicit padding: the record leaves the kernel whole.
 * A probe sends the first rec_size bytes, only what it uses: a
 * tracepoint without values its head (60 bytes: a 72-byte sample in the
 * ring, where the whole header made 192), a kprobe up to entry_ret,
 * values without strings up to its last val[], strings all of str_ret[]
 * and its strings. A ring holds that many more records; the reader
 * takes what was not sent as 0.
 */
struct trace_event {
	unsigned long long ts;        /* bpf_ktime_get_ns */
	unsigned int tgid;
	unsigned int tid;
	unsigned int uid;
	unsigned int gid;
	unsigned int cpu;
	unsigned int probe;           /* probe_id */
	int kstack;                   /* stack id, -errno, or -1 if not asked */
	int ustack;
	unsigned int stack_map;       /* the stack ids are of stacks (0), stacks1 */
	char comm[TRACE_COMM_LEN];
	/* TRACE_EVENT_HEAD */
	unsigned int pad;
	unsigned long long ip;        /* kprobe: regs->ip (function+1 on x86) */
	unsigned long long entry_ret; /* kprobe: PT_REGS_ENTRY_RET */
	/* TRACE_EVENT_VALS */
	unsigned long long val[TRACE_NSLOTS];
	int str_ret[TRACE_NSLOTS];    /* bytes read with the NUL, or -errno */
	char str[TRACE_STR_AREA];
	/* never sent: room past str[] for any offset and size the verifier
	 * may have to assume (see trace.bpf.c), up to TRACE_EVENT_SIZE */
	char slack[TRACE_EVENT_SIZE - TRACE_EVENT_FIXED - TRACE_STR_AREA];
};

/*
 * Before 4.11 (4.9, 4.10) helpers take memory on the stack only: there the
 * record is built on the stack (trace_kprobe_old), the fields up to str[]
 * and TRACE_OLD_STR_AREA bytes of strings: at most TRACE_OLD_EVENT_SIZE
 * bytes sent, the same layout as far as it goes.
 */
#define TRACE_OLD_STR_AREA 192
#define TRACE_OLD_EVENT_SIZE (TRACE_EVENT_FIXED + TRACE_OLD_STR_AREA)

#endif
