/* SPDX-License-Identifier: MIT */
/*
 * barebpf loader library: the one header the tools and tests include.
 *
 * Conventions (for every function here):
 *  - A function that can fail returns a non-negative result or -errno.
 *    Nobody reads errno after the fact.
 *  - Where a failure needs words (which section, which symbol, what to do),
 *    the function takes a `struct bb_err *` (may be NULL) and writes one
 *    sentence into it. The library never prints; the command line does.
 */
#ifndef BAREBPF_H
#define BAREBPF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bpf_abi.h"
#include "../bpf/bb_elf.h"

/* ---- errors (err.c) ---- */
struct bb_err {
	char msg[512];
};
/* Fill err (if not NULL) and return code, which must be negative. */
int bb_fail(struct bb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- raw system calls (sys.c) ---- */
long sys_bpf(int cmd, void *attr, unsigned int size);
int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu,
			int group_fd, unsigned long flags);
int sys_ioctl(int fd, unsigned long req, unsigned long arg);
/* Returns the address, or a value in [-4095, -1] (check with bb_is_err). */
long sys_mmap(void *addr, size_t len, int prot, int flags, int fd, long off);
int sys_munmap(void *addr, size_t len);
int sys_prlimit64(int pid, int resource, const void *new_lim, void *old_lim);
int sys_mount(const char *src, const char *target, const char *fstype,
	      unsigned long flags, const void *data);
int sys_umount2(const char *target, int flags);
static inline int bb_is_err(long v) { return v < 0 && v >= -4095; }

/* ---- thin bpf() wrappers (sys.c) ---- */
int bpf_map_create(uint32_t type, uint32_t key_size, uint32_t value_size,
		   uint32_t max_entries, uint32_t flags, const char *name);
int bpf_map_lookup_elem(int fd, const void *key, void *value);
int bpf_map_update_elem(int fd, const void *key, const void *value,
			uint64_t flags);
int bpf_map_delete_elem(int fd, const void *key);
int bpf_map_get_next_key(int fd, const void *key, void *next_key);
/*
 * Load a program. If the verifier refuses it and logp is not NULL, *logp
 * gets a malloc'ed copy of the verifier log (the buffer grows on ENOSPC).
 */
int bpf_prog_load(uint32_t type, const struct bpf_insn *insns, uint32_t cnt,
		  const char *license, uint32_t kern_version, const char *name,
		  char **logp);
/*
 * Does this kernel give programs of prog_type helper number `helper`? It
 * loads helper(stack buffer, 8, 0): for helpers of that shape (the
 * probe_read family). 1 or 0; -errno if bpf() itself fails (EPERM).
 */
int bpf_helper_available(uint32_t prog_type, int32_t helper);
/* Read a whole file (pseudo files too) into a malloc'ed NUL-terminated
 * buffer; returns its length. */
int bb_read_fd(int fd, char **buf);
int bb_read_file(const char *path, char **buf);
/* Read the first line of a small file (sysfs, procfs), without "\n". */
int bb_read_small(const char *path, char *buf, size_t len);
/* Sum over CPUs of a u64 in a per-CPU array at key (0 if unreadable). */
uint64_t bpf_map_sum_percpu_u64(int fd, uint32_t key);
/* Number of possible CPUs (per-CPU map values come in this many slots). */
int bb_ncpus_possible(void);
/*
 * Parse a CPU list like "0-3,5" and return how many CPUs (highest+1);
 * -ERANGE for a CPU number of BB_MAX_CPUS or more: the largest NR_CPUS a
 * kernel can be built with is 8192 (x86_64 with MAXSMP; arm64: 4096).
 */
#define BB_MAX_CPUS 8192
int bb_parse_cpu_list(const char *s);
/* Raise RLIMIT_MEMLOCK to infinity (maps are charged to it before 5.11). */
int bb_raise_memlock(struct bb_err *err);

/* ---- kernel version (kver.c) ---- */
#define KVER(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
/* Pure parsers: each returns 0 and sets *code, or -EINVAL. */
int kver_parse_release(const char *release, uint32_t *code); /* uname -r */
int kver_parse_ubuntu_signature(const char *sig, uint32_t *code);
int kver_parse_debian_uname_v(const char *uname_v, uint32_t *code);
int kver_parse_vdso_note(const void *vdso, size_t len, uint32_t *code);
/*
 * Find LINUX_VERSION_CODE: override string (option) if not NULL, then
 * $BAREBPF_KERN_VERSION, then the vDSO note, /proc/version_signature,
 * "Debian x.y.z" in uname -v, uname -r. source gets a short description
 * of where it came from ("vDSO note", ...).
 */
int kver_detect(const char *override, uint32_t *code, char *source,
		size_t srclen, struct bb_err *err);

/* ---- BPF ELF objects (elf.c: reader, obj.c: relocation and load) ---- */
enum bb_prog_kind {
	BB_PROG_KPROBE,
	BB_PROG_KRETPROBE,
	BB_PROG_TRACEPOINT,
};

struct bb_map {
	char name[64];
	struct bb_map_def def;
	int fd; /* -1 until obj_load */
};

struct bb_prog {
	char name[64];    /* function symbol */
	char section[128];
	enum bb_prog_kind kind;
	const char *target; /* after the first '/' of the section; "" if none */
	uint32_t prog_type;
	struct bpf_insn *insns; /* private, relocated copy */
	size_t insn_cnt;
	int fd; /* -1 until obj_load */
};

struct bb_const {
	char name[64];
	uint64_t value;
	int set;
};

struct bb_obj; /* opaque: one context per object, no globals */

/*
 * Parse and validate an object held in memory (buf must outlive obj).
 * name is used in messages.
 */
int obj_open(struct bb_obj **objp, const void *buf, size_t len,
	     const char *name, struct bb_err *err);
/* Set a load-time constant (an undefined symbol the programs refer to). */
int obj_set_const(struct bb_obj *obj, const char *name, uint64_t value);
/* The names of the constants the programs need, set or not. */
int obj_consts(struct bb_obj *obj, const struct bb_const **consts);
/*
 * Create maps, relocate (maps -> BPF_PSEUDO_MAP_FD, constants -> imm) and
 * load every program. On a verifier failure, err names the program and
 * obj_verifier_log() returns the kernel's log.
 */
int obj_load(struct bb_obj *obj, uint32_t kern_version, struct bb_err *err);
const char *obj_verifier_log(const struct bb_obj *obj);
/*
 * Load program `name` of a loaded object once more, with the load-time
 * constants as they are set now (obj_set_const after obj_load), as a
 * program of `kind`: one program serves several probes, each with
 * constants of its own. kind may differ from the section's (a kprobe
 * program attached as a kretprobe, or loaded as a tracepoint program if
 * its constants keep it from reading pt_regs). The copy belongs to obj:
 * obj_close closes it. Its insns are not kept (NULL).
 */
int obj_prog_load_copy(struct bb_obj *obj, const char *name,
		       enum bb_prog_kind kind, struct bb_prog **copy,
		       struct bb_err *err);
int obj_nprogs(const struct bb_obj *obj);
struct bb_prog *obj_prog_at(struct bb_obj *obj, int i);
struct bb_prog *obj_prog(struct bb_obj *obj, const char *name);
int obj_nmaps(const struct bb_obj *obj);
struct bb_map *obj_map_at(struct bb_obj *obj, int i);
struct bb_map *obj_map(struct bb_obj *obj, const char *name);
const char *obj_license(const struct bb_obj *obj);
void obj_close(struct bb_obj *obj); /* closes fds, frees; NULL is fine */

/* ---- tracefs (tracefs.c) ---- */
/*
 * Find tracefs (mounting tracefs or debugfs if neither is mounted).
 * Returns 0 if it was there, or BB_MOUNTED_* if it had to mount it: the
 * caller then owes a tracefs_unmount() (a session does this itself).
 */
#define BB_MOUNTED_TRACEFS 1 /* tracefs on /sys/kernel/tracing */
#define BB_MOUNTED_DEBUGFS 2 /* debugfs on /sys/kernel/debug */
int tracefs_find(char *path, size_t len, struct bb_err *err);
int tracefs_unmount(int mounted);
/* Read a whole file below tracefs into a malloc'ed NUL-terminated buffer. */
int tracefs_read(const char *tracefs, const char *rel, char **buf);
/* One write() of text to a file below tracefs (O_APPEND). */
int tracefs_append(const char *tracefs, const char *rel, const char *text);
/* Trace event id of events/<category>/<name>/id. */
int tracefs_event_id(const char *tracefs, const char *category,
		     const char *name);

struct bb_tp_field {
	char name[64];
	char type[64]; /* the declaration without the name: "char[16]" */
	int offset;
	int size;
	int is_signed;
};
/* Pure: parse the text of a format file. Returns the number of fields. */
int tp_format_parse(const char *text, struct bb_tp_field *fields, int max);
/* Look a field up in events/<category>/<event>/format. */
int tp_field(const char *tracefs, const char *category, const char *event,
	     const char *field, struct bb_tp_field *out, struct bb_err *err);

/* ---- attaching (attach.c: provider table; kprobe.c; tracepoint.c) ---- */
struct bb_link {
	enum bb_prog_kind kind;
	int pfd;              /* perf event fd */
	char event[112];      /* "group/name" we added to kprobe_events, or "" */
	char target[128];
	struct bb_link *next;
};

struct bb_session {
	char tracefs[256];    /* "" until first needed */
	char group[48];       /* "barebpf_<pid>_<pid namespace inode>" */
	unsigned long pidns;  /* inode of our pid namespace, 0 if unknown */
	int nprobes;          /* counter for unique event names */
	struct bb_link *links;
	int mounted;          /* BB_MOUNTED_* if we mounted tracefs, else 0 */
};

void session_init(struct bb_session *s);
/*
 * Fill s->tracefs once (tracefs_find), remembering whether it had to be
 * mounted so that session_detach_all can unmount it again.
 */
int session_tracefs(struct bb_session *s, struct bb_err *err);
/*
 * Attach prog at target (a function for kprobes, "category/name" for
 * tracepoints; NULL means the prog's own target). maxactive applies to
 * kretprobes (0: the kernel's default). Everything this adds is recorded
 * in s and removed by session_detach_all.
 */
int session_attach(struct bb_session *s, struct bb_prog *prog,
		   const char *target, int maxactive, struct bb_err *err);
/* Disable, close and remove every probe this session added. Idempotent. */
void session_detach_all(struct bb_session *s);
/* Sum of kprobe_profile misses over this session's kretprobes. */
long session_kretprobe_misses(struct bb_session *s);
/* Remove probes of barebpf processes that no longer exist. Returns count. */
int kprobes_remove_stale(const char *tracefs, struct bb_err *err);
/* Is CONFIG_KPROBE_EVENTS there (tracefs has kprobe_events)? */
int kprobes_available(const char *tracefs);
/*
 * Functions in available_filter_functions matching a glob pattern
 * (fnmatch). *names is a malloc'ed array of malloc'ed strings.
 */
int kprobe_match(const char *tracefs, const char *pattern, char ***names,
		 struct bb_err *err);
void bb_free_strv(char **v, int n);
/*
 * Pure parsers behind the above, for the unit tests.
 * kprobe_events_line_pid: for a kprobe_events line of a barebpf_<pid>
 * group, copy "group/event" into event and return the pid; 0 for another
 * tool's probe; -EINVAL for a line that is not a probe definition.
 */
int kprobe_events_line_pid(const char *line, char *event, size_t len);
/* The same, and *ns gets the pid namespace inode of the group (0: none). */
int kprobe_events_line_owner(const char *line, char *event, size_t len,
			     unsigned long *ns);
/* Inode of /proc/<pid>/ns/pid ("self" for us), 0 if unknown. */
unsigned long bb_pidns_ino(const char *pid);
/* One kprobe_profile line: "  <event>  <hits>  <misses>". */
int kprobe_profile_line(const char *line, char *event, size_t len,
			unsigned long *hits, unsigned long *misses);
/* kprobe_match on the text of available_filter_functions. */
int kprobe_match_text(const char *text, const char *pattern, char ***names);

/*
 * Attach providers: one per bb_prog_kind (attach.c dispatches, kprobe.c and
 * tracepoint.c implement). Internal to the library.
 */
struct bb_provider {
	const char *name;
	enum bb_prog_kind kind;
	int (*attach)(struct bb_session *s, struct bb_link *l, int prog_fd,
		      int maxactive, struct bb_err *err);
	int (*detach)(struct bb_session *s, struct bb_link *l);
};
extern const struct bb_provider kprobe_provider, kretprobe_provider,
	tracepoint_provider;
/* perf_event_open on trace event id, SET_BPF, ENABLE: the perf fd. */
int perf_tp_attach(int tp_id, int prog_fd);

/* ---- perf event array reader (perfbuf.c) ---- */
typedef void (*perfbuf_sample_fn)(void *ctx, int cpu, const void *data,
				  uint32_t size);
struct bb_perfbuf;
/* Open one ring per possible CPU and store their fds in map_fd. */
int perfbuf_open(struct bb_perfbuf **pbp, int map_fd, int pages_per_cpu,
		 perfbuf_sample_fn fn, void *ctx, struct bb_err *err);
/* Wait up to timeout_ms, then deliver every pending sample. */
int perfbuf_poll(struct bb_perfbuf *pb, int timeout_ms);
uint64_t perfbuf_lost(const struct bb_perfbuf *pb);
void perfbuf_close(struct bb_perfbuf *pb);

/* ---- kernel symbols (kallsyms.c) ---- */
struct bb_ksym {
	uint64_t addr;
	const char *name;
};
struct bb_ksyms;
int ksyms_load(struct bb_ksyms **ksp, const char *path, struct bb_err *err);
/* Pure: parse text in /proc/kallsyms format. */
int ksyms_parse(struct bb_ksyms **ksp, const char *text);
/* The symbol at or below addr (offset in *off), or NULL. */
const struct bb_ksym *ksyms_find(const struct bb_ksyms *ks, uint64_t addr,
				 uint64_t *off);
int ksyms_has(const struct bb_ksyms *ks, const char *name);
void ksyms_free(struct bb_ksyms *ks);

/* ---- stacks (stack.c) ---- */
#define BB_MAX_STACK 127 /* PERF_MAX_STACK_DEPTH: stack map value size/8 */
/* Copy stack `stackid` of a stack trace map into ips; returns the depth. */
int stack_read(int map_fd, int stackid, uint64_t *ips, int max);
/* Put ret, a probed function's return address (PT_REGS_ENTRY_RET), after
 * ips[0] unless it is 0 or already there; returns the new depth (n if
 * n < 1). */
int stack_add_entry_ret(uint64_t *ips, int n, int max, uint64_t ret);
/* One frame a line, "<indent>func+0x1a [kernel]", as bcc's trace -K. */
void stack_print_kernel(FILE *f, const struct bb_ksyms *ks,
			const uint64_t *ips, int n, const char *indent);
/* ["func+0x1a", ...] */
void stack_json_kernel(FILE *f, const struct bb_ksyms *ks,
		       const uint64_t *ips, int n);

/* ---- user-space symbols (usym.c), without libelf ---- */
/* The function symbols of one ELF64 little-endian file (ET_EXEC, ET_DYN). */
struct bb_elfsyms;
/* Pure: parse an image in memory (it may be freed afterwards). -ENOEXEC:
 * not such a file; -EBADMSG: damaged. A file without symbols is fine. */
int elfsyms_parse(struct bb_elfsyms **ep, const void *buf, size_t len);
int elfsyms_load(struct bb_elfsyms **ep, const char *path);
size_t elfsyms_count(const struct bb_elfsyms *e);
/* File offset -> link-time address, through the PT_LOAD that holds it. */
int elfsyms_vaddr(const struct bb_elfsyms *e, uint64_t foff, uint64_t *vaddr);
/* The function containing a link-time address (offset in *off), or NULL. */
const char *elfsyms_find(const struct bb_elfsyms *e, uint64_t vaddr,
			 uint64_t *off);
void elfsyms_free(struct bb_elfsyms *e);

/* One line of /proc/PID/maps. */
struct bb_maps_line {
	uint64_t start, end, offset, dev, inode;
	int exec;         /* 'x' in the permissions */
	const char *path; /* into the line: the rest of it, "" if none */
};
/* Pure: parse a line (without its newline). */
int usym_parse_maps_line(const char *line, struct bb_maps_line *m);

/* Per-process executable mappings and per-file symbols, cached. */
struct bb_usyms;
struct bb_usym {
	const char *name;   /* NULL if unknown */
	uint64_t off;
	const char *module; /* basename of the mapped file, NULL if none */
};
int usyms_new(struct bb_usyms **up);
/*
 * Read /proc/PID/maps now, once per pid: call it when the process is first
 * seen, since it may have exited by the time its addresses are printed.
 */
int usyms_add_pid(struct bb_usyms *u, int pid);
/* Symbolize addr of pid (reading its maps if not done yet). */
int usyms_find(struct bb_usyms *u, int pid, uint64_t addr, struct bb_usym *s);
void usyms_free(struct bb_usyms *u);
/* bcc's text: "func+0x7 [libc.so.6]", "[unknown] [lib.so]", "[unknown]". */
void usym_format(char *buf, size_t len, const struct bb_usym *s);
/* One frame a line, as bcc's trace -U; and a JSON array of the same. */
void stack_print_user(FILE *f, struct bb_usyms *u, int pid,
		      const uint64_t *ips, int n, const char *indent);
void stack_json_user(FILE *f, struct bb_usyms *u, int pid,
		     const uint64_t *ips, int n);

/* ---- output (hist.c, disk.c) ---- */
/* bcc's print_log2_hist: "     usecs  : count    distribution". */
void hist_print_log2(FILE *f, const uint64_t *vals, int n, const char *unit);
/* {"unit":"usecs","buckets":[{"lo":0,"hi":1,"count":3},...]} */
void hist_json_log2(FILE *f, const uint64_t *vals, int n, const char *unit);
/* JSON string with escapes. */
void json_str(FILE *f, const char *s);
/* Kernel dev_t (major << 20 | minor) <-> disk name, via /sys/block. */
int disk_name(uint32_t kdev, char *name, size_t len);
int disk_kdev(const char *name, uint32_t *kdev);

/* ---- signals (cli) ---- */
extern volatile int bb_stop; /* set by SIGINT/SIGTERM/SIGHUP */

#endif
