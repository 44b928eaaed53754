/* SPDX-License-Identifier: MIT */
/* barebpf syscount: system calls counted by call or by process, bcc's
 * options and columns. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "outrec.h"
#include "sysnames.h"
#include "syscount_out.h"
#include "mods.h"
#include "../../../bpf/syscount.h"

static const struct tool_usage help = { NULL, "syscount" };

struct syscount_opts {
	double interval, duration;
	unsigned long pid, tid, top;
	const char *cgroup, *syscall;
	int json, failed, err, latency, ms, by_process, list;
};

/* The errno names of -e, with this libc's (this architecture's) values. */
#define ERRS(X) X(EPERM) X(ENOENT) X(ESRCH) X(EINTR) X(EIO) X(ENXIO)      \
	X(E2BIG) X(ENOEXEC) X(EBADF) X(ECHILD) X(EAGAIN) X(ENOMEM)         \
	X(EACCES) X(EFAULT) X(ENOTBLK) X(EBUSY) X(EEXIST) X(EXDEV)         \
	X(ENODEV) X(ENOTDIR) X(EISDIR) X(EINVAL) X(ENFILE) X(EMFILE)       \
	X(ENOTTY) X(ETXTBSY) X(EFBIG) X(ENOSPC) X(ESPIPE) X(EROFS)         \
	X(EMLINK) X(EPIPE) X(EDOM) X(ERANGE) X(EDEADLK) X(ENAMETOOLONG)    \
	X(ENOLCK) X(ENOSYS) X(ENOTEMPTY) X(ELOOP) X(EWOULDBLOCK)           \
	X(ENOMSG) X(EIDRM) X(ENOSTR) X(ENODATA) X(ETIME) X(ENOSR)          \
	X(ENOLINK) X(EPROTO) X(EBADMSG) X(EOVERFLOW) X(EILSEQ) X(EUSERS)   \
	X(ENOTSOCK) X(EDESTADDRREQ) X(EMSGSIZE) X(EPROTOTYPE)              \
	X(ENOPROTOOPT) X(EPROTONOSUPPORT) X(ESOCKTNOSUPPORT) X(EOPNOTSUPP) \
	X(ENOTSUP) X(EPFNOSUPPORT) X(EAFNOSUPPORT) X(EADDRINUSE)           \
	X(EADDRNOTAVAIL) X(ENETDOWN) X(ENETUNREACH) X(ENETRESET)           \
	X(ECONNABORTED) X(ECONNRESET) X(ENOBUFS) X(EISCONN) X(ENOTCONN)    \
	X(ESHUTDOWN) X(ETOOMANYREFS) X(ETIMEDOUT) X(ECONNREFUSED)          \
	X(EHOSTDOWN) X(EHOSTUNREACH) X(EALREADY) X(EINPROGRESS) X(ESTALE)  \
	X(EDQUOT) X(ECANCELED) X(EOWNERDEAD) X(ENOTRECOVERABLE)            \
	X(ENOMEDIUM) X(EMEDIUMTYPE) X(ENOKEY) X(EKEYEXPIRED)               \
	X(EKEYREVOKED) X(EKEYREJECTED) X(ERFKILL) X(EHWPOISON) X(ECHRNG)   \
	X(EL2NSYNC) X(EL3HLT) X(EL3RST) X(ELNRNG) X(EUNATCH) X(ENOCSI)     \
	X(EL2HLT) X(EBADE) X(EBADR) X(EXFULL) X(ENOANO) X(EBADRQC)         \
	X(EBADSLT) X(EBFONT) X(ENONET) X(ENOPKG) X(EREMOTE) X(EADV)        \
	X(ESRMNT) X(ECOMM) X(EMULTIHOP) X(EDOTDOT) X(ENOTUNIQ) X(EBADFD)   \
	X(EREMCHG) X(ELIBACC) X(ELIBBAD) X(ELIBSCN) X(ELIBMAX) X(ELIBEXEC) \
	X(ERESTART) X(ESTRPIPE) X(EUCLEAN) X(ENOTNAM) X(ENAVAIL) X(EISNAM) \
	X(EREMOTEIO)
#define ERR_ENTRY(e) { #e, e },
static const struct {
	const char *name;
	int nr;
} errnames[] = { ERRS(ERR_ENTRY) };

int syscount_errno(const char *s)
{
	unsigned long v;
	size_t i;

	if (parse_ulong(s, &v) == 0)
		return v > 0 && v < 4096 ? (int)v : -EINVAL;
	for (i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (!strcmp(s, errnames[i].name))
			return errnames[i].nr;
	return -EINVAL;
}

/*
 * A row, once: bcc's columns ("%-22s %8d", with -L " %16.3f", -P's
 * "%-6d %-15s" in the first 22) and the JSON keys. The last column has no
 * blank after it: COUNT once without -L, once with.
 */
enum { W_CALL = 1, W_PROC, W_NOLAT, W_LAT, W_US, W_MS };
enum { F_CALL, F_NR, F_PID, F_COMM, F_COUNT_END, F_COUNT, F_US, F_MS, F_NS,
       F_N };
static const struct out_field fields[F_N] = {
	[F_CALL] = { "SYSCALL", "syscall", OUT_STR, -22, 0, 0, 0, W_CALL,
		     NULL },
	[F_NR] = { NULL, "nr", OUT_UINT, 0, 0, 0, 0, W_CALL, NULL },
	[F_PID] = { "PID", "pid", OUT_UINT, -6, 0, 0, 0, W_PROC, NULL },
	[F_COMM] = { "COMM", "comm", OUT_STR, -15, 0, 0, 0, W_PROC, NULL },
	[F_COUNT_END] = { "COUNT", "count", OUT_UINT, 8, 0, 0, 1, W_NOLAT,
			  NULL },
	[F_COUNT] = { "COUNT", "count", OUT_UINT, 8, 0, 0, 0, W_LAT, NULL },
	[F_US] = { "TIME (us)", NULL, OUT_DBL, 16, 3, 0, 1, W_US, NULL },
	[F_MS] = { "TIME (ms)", NULL, OUT_DBL, 16, 6, 0, 1, W_MS, NULL },
	[F_NS] = { NULL, "total_ns", OUT_UINT, 0, 0, 0, 0, W_LAT, NULL },
};

static unsigned row_mask(unsigned flags, int json)
{
	unsigned m = OUT_BIT(flags & SYSCOUNT_BY_PROCESS ? W_PROC : W_CALL);

	if (!(flags & SYSCOUNT_LATENCY))
		return m | OUT_BIT(W_NOLAT);
	m |= OUT_BIT(W_LAT);
	/* JSON: total_ns, whatever the unit */
	if (json)
		return m;
	return m | OUT_BIT(flags & SYSCOUNT_MS ? W_MS : W_US);
}

static int cmp_count(const void *a, const void *b)
{
	const struct syscount_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static int cmp_ns(const void *a, const void *b)
{
	const struct syscount_row *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return cmp_count(a, b);
}

static void print_row(FILE *f, const struct syscount_row *r, unsigned mask,
		      int json)
{
	struct out_val v[F_N] = { 0 };
	char name[64], comm[17];

	if (sysnames_name(r->key, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "[unknown: %u]", r->key);
	memcpy(comm, r->comm, 16);
	comm[16] = 0;
	v[F_CALL].s = name;
	v[F_NR].u = r->key;
	v[F_PID].u = r->key;
	v[F_COMM].s = comm;
	v[F_COUNT_END].u = v[F_COUNT].u = r->count;
	v[F_US].d = r->ns / 1e3;
	v[F_MS].d = r->ns / 1e6;
	v[F_NS].u = r->ns;
	if (!json) {
		out_row(f, fields, F_N, mask, v, 0);
		return;
	}
	out_row_open(f, fields, F_N, mask, v, 1);
	fputc('}', f);
}

void syscount_print(FILE *f, struct syscount_row *rows, int n, int top,
		    unsigned flags, const char *hms, int json)
{
	unsigned mask = row_mask(flags, json);
	int i;

	if (n > 1)
		qsort(rows, n, sizeof(*rows),
		      flags & SYSCOUNT_LATENCY ? cmp_ns : cmp_count);
	if (top > 0 && n > top)
		n = top;
	if (json)
		fprintf(f, "{\"time\":\"%s\",\"%s\":[", hms,
			flags & SYSCOUNT_BY_PROCESS ? "processes" : "syscalls");
	else {
		fprintf(f, "[%s]\n", hms);
		out_head(f, fields, F_N, mask);
	}
	for (i = 0; i < n; i++) {
		if (json && i)
			fputc(',', f);
		print_row(f, &rows[i], mask, json);
	}
	fputs(json ? "]}\n" : "\n", f);
}

/* What the totals gained since the last read (prev, sorted by key). */
struct syscount_state {
	int fd;
	struct syscount_row *prev, *cur;
	int nprev;
};

static int cmp_key(const void *a, const void *b)
{
	const struct syscount_row *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* The map's rows, with their totals, sorted by key; -errno. */
static int read_totals(struct syscount_state *s, int *np)
{
	struct syscount_val val;
	uint32_t key, next, *pk = NULL;
	int n = 0;

	while (n < SYSCOUNT_MAX_KEYS &&
	       bpf_map_get_next_key(s->fd, pk, &next) == 0) {
		key = next;
		pk = &key;
		if (bpf_map_lookup_elem(s->fd, &key, &val) < 0)
			continue; /* deleted meanwhile */
		s->cur[n].key = key;
		s->cur[n].count = val.count;
		s->cur[n].ns = val.total_ns;
		memcpy(s->cur[n].comm, val.comm, 16);
		n++;
	}
	qsort(s->cur, n, sizeof(*s->cur), cmp_key);
	*np = n;
	return 0;
}

/*
 * Print the deltas. The programs never delete (a count added between a
 * read and a delete would be lost): with -P, processes are many, so once
 * the map is half full the rows that gained nothing are deleted.
 */
static void print_deltas(struct syscount_state *s,
			 const struct syscount_opts *o)
{
	struct syscount_row *rows, *old;
	unsigned flags = (o->by_process ? SYSCOUNT_BY_PROCESS : 0) |
			 (o->latency ? SYSCOUNT_LATENCY : 0) |
			 (o->ms ? SYSCOUNT_MS : 0);
	int n = 0, i, k = 0;

	read_totals(s, &n);
	rows = malloc(((size_t)n + 1) * sizeof(*rows));
	for (i = 0; rows && i < n; i++) {
		old = s->nprev ? bsearch(&s->cur[i], s->prev, s->nprev,
					 sizeof(*old), cmp_key) : NULL;
		rows[k] = s->cur[i];
		rows[k].count -= old ? old->count : 0;
		rows[k].ns -= old ? old->ns : 0;
		if (rows[k].count)
			k++;
		else if (n > SYSCOUNT_MAX_KEYS / 2 &&
			 bpf_map_delete_elem(s->fd, &s->cur[i].key) == 0)
			s->cur[i].count = 0; /* gone: from 0 if it is back */
	}
	syscount_print(stdout, rows, rows ? k : 0, (int)o->top, flags,
		       now_hms(), o->json);
	free(rows);
	/* the totals become the previous ones: swap the buffers */
	old = s->prev;
	s->prev = s->cur;
	s->cur = old;
	s->nprev = n;
	for (i = 0; i < n; i++)
		if (!s->prev[i].count)
			s->prev[i].ns = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* -l: bcc's list, sorted, four "%-22s" a line apart by three blanks. */
static int list_syscalls(void)
{
	int n = sysnames_count(), i, k = 0;
	char (*names)[64] = calloc(n, sizeof(*names));
	const char **p = calloc(n, sizeof(*p));

	if (!names || !p) {
		free(names);
		free(p);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (sysnames_name(i, names[k], sizeof(names[k])) == 0) {
			p[k] = names[k];
			k++;
		}
	qsort(p, k, sizeof(*p), cmp_str);
	for (i = 0; i < k; i++)
		printf(i % 4 == 3 || i == k - 1 ? "%s\n" : "%-22s   ", p[i]);
	free(names);
	free(p);
	return 0;
}

enum { OPT_SYSCALL = TOOL_OPT_FIRST_OWN };

static int own_opt(struct tool_ctx *t, struct syscount_opts *o, int c)
{
	switch (c) {
	case 'd':
		return opt_seconds(t, "-d", optarg, &o->duration);
	case 't':
		if (parse_ulong(optarg, &o->tid) < 0 || !o->tid ||
		    o->tid > 0x7fffffff)
			return tool_fail(t, -EINVAL, "-t needs a thread id, "
					 "not '%s'", optarg);
		return 0;
	case 'T':
		return opt_count(t, "-T", "rows", optarg, &o->top);
	case 'c': o->cgroup = optarg; return 0;
	case 'x': o->failed = 1; return 0;
	case 'L': o->latency = 1; return 0;
	case 'm': o->ms = 1; return 0;
	case 'P': o->by_process = 1; return 0;
	case 'l': o->list = 1; return 0;
	case OPT_SYSCALL: o->syscall = optarg; return 0;
	case 'e':
		o->err = syscount_errno(optarg[0] == '-' ? optarg + 1 : optarg);
		if (o->err > 0)
			return 0;
		return tool_fail(t, -EINVAL, "-e needs an errno, a number or "
				 "a name such as ENOENT, not '%s'", optarg);
	}
	return tool_see_help(t);
}

static int parse_args(struct tool_ctx *t, struct syscount_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS, TOOL_LONGOPT_PID, TOOL_LONGOPT_INTERVAL,
		{ "tid", required_argument, NULL, 't' },
		{ "cgroup", required_argument, NULL, 'c' },
		{ "top", required_argument, NULL, 'T' },
		{ "failures", no_argument, NULL, 'x' },
		{ "errno", required_argument, NULL, 'e' },
		{ "latency", no_argument, NULL, 'L' },
		{ "milliseconds", no_argument, NULL, 'm' },
		{ "process", no_argument, NULL, 'P' },
		{ "list", no_argument, NULL, 'l' },
		{ "syscall", required_argument, NULL, OPT_SYSCALL },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
				     .duration = &o->duration,
				     .interval = &o->interval, .pid = &o->pid };
	int c;

	o->top = 10;
	while ((c = tool_getopt(t, argc, argv, "hvjp:i:d:t:c:T:xe:LmPl",
				longopts, &v)) > 0)
		if (own_opt(t, o, c) < 0)
			return -EINVAL;
	if (c < 0)
		return c;
	if (o->pid && o->tid)
		return tool_fail(t, -EINVAL, "-p and -t: give one of them");
	return opt_no_args(t, argc, argv);
}

static int run(struct tool_ctx *t, const struct syscount_opts *o,
	       const struct syscount_settings *s)
{
	struct syscount_state st = { 0 };
	struct tool_timer tm;
	int tick, ret = -ENOMEM;

	st.prev = calloc(SYSCOUNT_MAX_KEYS, sizeof(*st.prev));
	st.cur = calloc(SYSCOUNT_MAX_KEYS, sizeof(*st.cur));
	if (!st.prev || !st.cur) {
		tool_error(t, "out of memory");
		goto out;
	}
	if ((ret = syscount_start(t, s)) < 0)
		goto out;
	st.fd = syscount_data_fd(t);
	if (o->syscall)
		tool_tracing(t, o->json ? stderr : stdout, "Tracing %ssyscall "
			     "'%s'... Ctrl+C to quit.\n",
			     o->failed ? "failed " : "", o->syscall);
	else
		tool_tracing(t, o->json ? stderr : stdout, "Tracing %s"
			     "syscalls, printing top %lu... Ctrl+C to quit.\n",
			     o->failed ? "failed " : "", o->top);
	/* bcc: no -i is one summary at the end (-d's, or Ctrl-C's) */
	tool_timer_init(&tm, o->interval, o->duration);
	do {
		tick = tool_wait(&tm, NULL);
		if (tick != TOOL_TICK_NONE)
			print_deltas(&st, o);
	} while (tick != TOOL_TICK_LAST);
	if (!o->json)
		printf("Detaching...\n");
	ret = 0;
out:
	free(st.prev);
	free(st.cur);
	return ret;
}

static int syscount_main(int argc, char **argv)
{
	struct syscount_opts o = { 0 };
	struct syscount_settings s = { 0 };
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "syscount");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	if (o.list)
		return list_syscalls() < 0;
	s.nr = -1;
	if (o.syscall && (s.nr = sysnames_number(o.syscall)) < 0) {
		tool_error(&t, "syscall '%s' not found (`barebpf syscount -l` "
			   "lists this architecture's)", o.syscall);
		return 1;
	}
	s.pid = o.pid;
	s.tid = o.tid;
	s.cgroup = o.cgroup;
	s.failed = o.failed;
	s.err = o.err;
	s.by_process = o.by_process;
	s.latency = o.latency;
	tool_signals();
	if (run(&t, &o, &s) == 0)
		ret = 0;
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_syscount = {
	"syscount", syscount_main,
	"system call counts and latencies, by call or process (tracepoints)"
};
