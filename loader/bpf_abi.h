/* SPDX-License-Identifier: MIT */
/*
 * The kernel ABI barebpf speaks, written down here instead of taken from the
 * build host's <linux/bpf.h> and <linux/perf_event.h>: musl ships no kernel
 * headers, an old host may lack them, and we must only ever send the fields
 * that Linux 4.15 knows (the kernel rejects non-zero bytes past its own
 * struct size with E2BIG).
 */
#ifndef BAREBPF_BPF_ABI_H
#define BAREBPF_BPF_ABI_H

#include <stdint.h>

/* bpf() commands */
enum {
	BPF_MAP_CREATE = 0,
	BPF_MAP_LOOKUP_ELEM = 1,
	BPF_MAP_UPDATE_ELEM = 2,
	BPF_MAP_DELETE_ELEM = 3,
	BPF_MAP_GET_NEXT_KEY = 4,
	BPF_PROG_LOAD = 5,
	BPF_OBJ_PIN = 6,
	BPF_OBJ_GET = 7,
	BPF_PROG_TEST_RUN = 10,      /* 4.12 */
	BPF_OBJ_GET_INFO_BY_FD = 15, /* 4.13 */
	BPF_RAW_TRACEPOINT_OPEN = 17, /* 4.17 */
	BPF_MAP_FREEZE = 22,         /* 5.2 */
};

/* map types (all present in 4.15) */
enum {
	BPF_MAP_TYPE_UNSPEC = 0,
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PROG_ARRAY = 3,
	BPF_MAP_TYPE_PERF_EVENT_ARRAY = 4,
	BPF_MAP_TYPE_PERCPU_HASH = 5,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_STACK_TRACE = 7,
	BPF_MAP_TYPE_CGROUP_ARRAY = 8,
	BPF_MAP_TYPE_LRU_HASH = 9,
	BPF_MAP_TYPE_LRU_PERCPU_HASH = 10,
	BPF_MAP_TYPE_LPM_TRIE = 11,
	BPF_MAP_TYPE_ARRAY_OF_MAPS = 12, /* 4.12 */
	BPF_MAP_TYPE_HASH_OF_MAPS = 13,  /* 4.12 */
};

/* map_flags */
#define BPF_F_NO_PREALLOC (1U << 0) /* 4.6 */
#define BPF_F_NO_COMMON_LRU (1U << 1) /* 4.10 */
#define BPF_F_NUMA_NODE   (1U << 2) /* 4.14 */
#define BPF_F_STACK_BUILD_ID (1U << 5) /* 4.17: stack maps of (build id, offset) */
#define BPF_F_RDONLY_PROG (1U << 7) /* 5.2 */

/* program types */
enum {
	BPF_PROG_TYPE_UNSPEC = 0,
	BPF_PROG_TYPE_SOCKET_FILTER = 1,
	BPF_PROG_TYPE_KPROBE = 2,
	BPF_PROG_TYPE_TRACEPOINT = 5,
	BPF_PROG_TYPE_PERF_EVENT = 7,
	BPF_PROG_TYPE_RAW_TRACEPOINT = 17, /* 4.17 */
};

/* map update flags */
#define BPF_ANY     0
#define BPF_NOEXIST 1
#define BPF_EXIST   2

/* instruction encoding */
struct bpf_insn {
	uint8_t code;
	uint8_t dst_reg : 4;
	uint8_t src_reg : 4;
	int16_t off;
	int32_t imm;
};

#define BPF_CLASS(code) ((code) & 0x07)
#define BPF_LD    0x00
#define BPF_LDX   0x01
#define BPF_ST    0x02
#define BPF_STX   0x03
#define BPF_ALU   0x04
#define BPF_JMP   0x05
#define BPF_JMP32 0x06 /* 5.1 */
#define BPF_ALU64 0x07
#define BPF_IMM   0x00
#define BPF_DW    0x18
#define BPF_CALL  0x80
#define BPF_EXIT  0x90
#define BPF_K     0x00
#define BPF_X     0x08
#define BPF_MOV   0xb0
#define BPF_ADD   0x00
#define BPF_JA    0x00
#define BPF_MEM   0x60
#define BPF_W     0x00
#define BPF_H     0x08
#define BPF_B     0x10
#define BPF_SIZE(code) ((code) & 0x18)
#define BPF_MODE(code) ((code) & 0xe0)
#define BPF_OP(code)   ((code) & 0xf0)
#define BPF_SRC(code)  ((code) & 0x08)
#define BPF_LD_IMM64_CODE (BPF_LD | BPF_DW | BPF_IMM) /* 0x18 */
#define BPF_CALL_CODE     (BPF_JMP | BPF_CALL)        /* 0x85 */
/* One instruction as an initializer (an array's element, or with a cast
 * (struct bpf_insn)BB_INSN(...) a value): the loader's hand-written
 * programs (feature probes, funccount's raw tracepoint counters). */
#define BB_INSN(c, d, s, o, i)                                                 \
	{ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }
#define BPF_PSEUDO_MAP_FD 1
#define BPF_PSEUDO_MAP_VALUE 2 /* ld_imm64 of a map value's address, 5.2 */
#define BPF_PSEUDO_CALL   1 /* src_reg of a bpf-to-bpf call, 4.16 */
#define BPF_MAXINSNS_BIG  1000000 /* BPF_COMPLEXITY_LIMIT_INSNS, 5.2 */

#define BPF_MAXINSNS      4096
#define BPF_OBJ_NAME_LEN  16

/*
 * The parts of union bpf_attr that barebpf uses, with 4.15's layout. Each
 * command gets its own struct so its size is exactly what we send.
 */
struct bpf_attr_map_create {
	uint32_t map_type;
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t map_flags;
	uint32_t inner_map_fd;
	uint32_t numa_node;
	char map_name[BPF_OBJ_NAME_LEN]; /* 4.15 */
};

struct bpf_attr_map_elem {
	uint32_t map_fd;
	uint32_t pad;
	uint64_t key;
	uint64_t value; /* or next_key */
	uint64_t flags;
};

struct bpf_attr_obj {
	uint64_t pathname;
	uint32_t bpf_fd;
	uint32_t file_flags; /* 4.15 */
};

struct bpf_attr_info {
	uint32_t bpf_fd;
	uint32_t info_len;
	uint64_t info;
};

struct bpf_attr_prog_load {
	uint32_t prog_type;
	uint32_t insn_cnt;
	uint64_t insns;
	uint64_t license;
	uint32_t log_level;
	uint32_t log_size;
	uint64_t log_buf;
	uint32_t kern_version;
	uint32_t prog_flags;
	char prog_name[BPF_OBJ_NAME_LEN]; /* 4.15 */
};

/* perf_event_open */
#define PERF_TYPE_HARDWARE   0
#define PERF_TYPE_SOFTWARE   1
#define PERF_TYPE_TRACEPOINT 2
#define PERF_COUNT_SW_BPF_OUTPUT 10
#define PERF_SAMPLE_RAW (1U << 10)
#define PERF_FLAG_FD_CLOEXEC (1UL << 3)

struct perf_event_attr {
	uint32_t type;
	uint32_t size;
	uint64_t config;
	uint64_t sample_period; /* or sample_freq */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags; /* disabled:1, inherit:1, ... watermark is bit 14 */
	uint32_t wakeup_events; /* or wakeup_watermark */
	uint32_t bp_type;
	uint64_t config1;
	uint64_t config2;
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t reserved2;
};
#define PERF_ATTR_FLAG_DISABLED  (1ULL << 0)
#define PERF_ATTR_FLAG_FREQ      (1ULL << 10) /* sample_freq, not _period */
#define PERF_ATTR_FLAG_WATERMARK (1ULL << 14)
#define PERF_COUNT_HW_CPU_CYCLES 0
#define PERF_COUNT_SW_CPU_CLOCK  0

/* ioctls: _IO('$', n) and _IOW('$', 8, u32) */
#define PERF_EVENT_IOC_ENABLE  0x2400
#define PERF_EVENT_IOC_DISABLE 0x2401
#define PERF_EVENT_IOC_SET_BPF 0x40042408

struct perf_event_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
};
#define PERF_RECORD_LOST   2
#define PERF_RECORD_SAMPLE 9

/* The head of the mmap'ed ring: only the fields we read, at their offsets. */
struct perf_event_mmap_page {
	uint32_t version;
	uint32_t compat_version;
	uint8_t pad[1024 - 8];
	uint64_t data_head; /* offset 1024 */
	uint64_t data_tail;
	uint64_t data_offset;
	uint64_t data_size;
};

#endif
