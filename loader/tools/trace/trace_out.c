/* SPDX-License-Identifier: MIT */
/*
 * trace's lines: bcc's columns (TIME, CPU, PID, TID, COMM, FUNC, the
 * message), the stacks under them, or one JSON object per event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "outrec.h"
#include "trace_tool.h"

#define INDENT "        "

int trace_fast = 1;
uint64_t trace_fast_lines;

/* FUNC of a kprobe event of a glob: the function regs->ip is in (x86
 * reports the probed address + 1, the int3 that trapped). A USDT probe's
 * sites are all the probe. */
static const char *func_name(const struct trace_run *r,
			     const struct trace_probe *p,
			     const struct trace_event *e, char *buf,
			     size_t len)
{
	const struct bb_ksym *s;

	if (p->nfuncs <= 1 || p->spec.type != TRACE_ENTRY || p->spec.lib[0])
		return trace_spec_display(&p->spec);
	s = r->ks ? ksyms_find(r->ks, e->ip, NULL) : NULL;
	if (s)
		return s->name;
	snprintf(buf, len, "0x%llx", (unsigned long long)e->ip);
	return buf;
}

static const char *stack_error(int id)
{
	switch (id) {
	case -EEXIST:
		return "another stack holds its slot of the stack map (hash "
		       "collision)";
	case -ENOMEM:
		return "the stack map is full";
	case -EFAULT:
		return "no stack could be read";
	default:
		return strerror(-id);
	}
}

/* The depth of stack id, or -errno (the id itself when BPF failed). A user
 * stack of -EFAULT means the task has no user space (a kernel thread). */
static int read_stack(const struct trace_run *r, const struct trace_event *e,
		      int id, uint64_t *ips)
{
	return stack_read(r->stacks_fd[e->stack_map & 1], id, ips,
			  BB_MAX_STACK);
}

/*
 * Does the map in use fill? Its buckets taken (the stack ids seen): half
 * of them, where half of the new stacks collide. Collisions themselves
 * come early (two of 4096 buckets meet after about 80 stacks), so only
 * many of them count.
 */
static void stack_seen(struct trace_run *r, const struct trace_event *e,
		       int id)
{
	if ((e->stack_map & 1) != r->gen)
		return;
	if (id == -EEXIST) {
		if (++r->collisions >= TRACE_STACK_ENTRIES / 8)
			r->full = 1;
	} else if (id >= 0 && id < TRACE_STACK_ENTRIES &&
		   !(r->seen[id / 8] & (1 << (id % 8)))) {
		r->seen[id / 8] |= 1 << (id % 8);
		if (++r->nseen >= TRACE_STACK_ENTRIES / 2)
			r->full = 1;
	}
}

/* At a return, x30 (arm64) holds the kretprobe trampoline, not a caller:
 * only an entry's stack gets its return address back. */
static int read_kstack(const struct trace_run *r, const struct trace_event *e,
		       uint64_t *ips)
{
	const struct trace_probe *p = &r->o->probes[e->probe];

	return stack_add_entry_ret(ips, read_stack(r, e, e->kstack, ips),
				   BB_MAX_STACK, p->spec.type == TRACE_ENTRY ?
				   e->entry_ret : 0);
}

static void print_stacks(struct trace_run *r, const struct trace_event *e)
{
	uint64_t ips[BB_MAX_STACK];
	int n;

	if (r->o->kstack) {
		n = read_kstack(r, e, ips);
		if (n < 0)
			printf(INDENT "[no kernel stack: %s]\n",
			       stack_error(n));
		else
			stack_print_kernel(stdout, r->ks, ips, n, INDENT);
	}
	if (r->o->ustack && e->ustack != -EFAULT) {
		n = read_stack(r, e, e->ustack, ips);
		if (n < 0)
			printf(INDENT "[no user stack: %s]\n", stack_error(n));
		else
			stack_print_user(stdout, r->us, e->tgid, ips, n,
					 INDENT);
	}
	if (r->o->kstack || r->o->ustack)
		putchar('\n');
}

static void json_stacks(struct trace_run *r, const struct trace_event *e)
{
	uint64_t ips[BB_MAX_STACK];
	int n;

	if (r->o->kstack) {
		printf(",\"kstack\":");
		n = read_kstack(r, e, ips);
		if (n >= 0)
			stack_json_kernel(stdout, r->ks, ips, n);
		else
			json_str(stdout, stack_error(n));
	}
	if (r->o->ustack) {
		printf(",\"ustack\":");
		n = e->ustack == -EFAULT ? 0 : read_stack(r, e, e->ustack, ips);
		if (n >= 0)
			stack_json_user(stdout, r->us, e->tgid, ips, n);
		else
			json_str(stdout, stack_error(n));
	}
}

/* The event's time: "HH:MM:SS" (-T) or seconds since the start (-t). */
static void event_time(const struct trace_run *r, const struct trace_event *e,
		       char *buf, size_t len)
{
	double since = e->ts / 1e9 - r->t0_mono;
	time_t when;
	struct tm tm;

	if (since < 0)
		since = 0;
	if (r->o->timestamp) {
		/* bcc: "%.6f" cut to 8 characters */
		snprintf(buf, len, "%.6f", since);
		buf[len > 8 ? 8 : len - 1] = 0;
		return;
	}
	when = (time_t)(r->t0_real + since);
	localtime_r(&when, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

/*
 * The line, once: bcc's columns, and the JSON keys. TIME is the clock or
 * (-t) the seconds since the start, "ts" a number in JSON; FUNC is padded
 * only where a message follows it.
 */
enum { COL_TIME = 1, COL_TS, COL_HMS, COL_CPU, COL_MSG, COL_NOMSG };
enum {
	F_TIME, F_CPU, F_PID, F_TID, F_COMM, F_FUNC, F_FUNC_END, F_JFUNC,
	F_JTS, F_JTIME, F_JCPU, F_MSG, F_N
};
static const struct out_field fields[F_N] = {
	[F_TIME] = { "TIME", NULL, OUT_STR, -8, 0, 0, 0, COL_TIME, NULL },
	[F_CPU] = { "CPU", NULL, OUT_UINT, -3, 0, 0, 0, COL_CPU, NULL },
	[F_PID] = { "PID", "pid", OUT_UINT, -7, 0, 0, 0, 0, NULL },
	[F_TID] = { "TID", "tid", OUT_UINT, -7, 0, 0, 0, 0, NULL },
	[F_COMM] = { "COMM", "comm", OUT_STR, -15, 0, 0, 0, 0, NULL },
	[F_FUNC] = { "FUNC", NULL, OUT_STR, -16, 0, 0, 0, COL_MSG, NULL },
	[F_FUNC_END] = { "FUNC", NULL, OUT_STR, 0, 0, 0, 1, COL_NOMSG, NULL },
	[F_JFUNC] = { NULL, "func", OUT_STR, 0, 0, 0, 0, 0, NULL },
	[F_JTS] = { NULL, "ts", OUT_RAW, 0, 0, 0, 0, COL_TS, NULL },
	[F_JTIME] = { NULL, "time", OUT_STR, 0, 0, 0, 0, COL_HMS, NULL },
	[F_JCPU] = { NULL, "cpu", OUT_UINT, 0, 0, 0, 0, COL_CPU, NULL },
	/* its %s values escaped by trace_format; JSON adds msg and args */
	[F_MSG] = { "-", NULL, OUT_RAW, 0, 0, 0, 1, COL_MSG, NULL },
};

static unsigned columns(const struct trace_opts *o, int msg)
{
	return (o->time || o->timestamp ? OUT_BIT(COL_TIME) : 0) |
	       (o->timestamp ? OUT_BIT(COL_TS) : 0) |
	       (o->time && !o->timestamp ? OUT_BIT(COL_HMS) : 0) |
	       (o->cpu ? OUT_BIT(COL_CPU) : 0) |
	       OUT_BIT(msg ? COL_MSG : COL_NOMSG);
}

static void print_event(struct trace_run *r, const struct trace_probe *p,
			const struct trace_event *e, uint32_t size,
			const char *comm, const char *func, const char *msg)
{
	const struct trace_opts *o = r->o;
	unsigned mask = columns(o, p->spec.has_fmt);
	struct out_val v[F_N] = { 0 };
	char tbuf[32] = "";

	if (o->time || o->timestamp)
		event_time(r, e, tbuf, sizeof(tbuf));
	v[F_TIME].s = v[F_JTS].s = v[F_JTIME].s = tbuf;
	v[F_CPU].u = v[F_JCPU].u = e->cpu;
	v[F_PID].u = e->tgid;
	v[F_TID].u = e->tid;
	v[F_COMM].s = comm;
	v[F_FUNC].s = v[F_FUNC_END].s = v[F_JFUNC].s = func;
	v[F_MSG].s = msg ? msg : "";
	if (!o->json) {
		out_row(stdout, fields, F_N, mask, v, 0);
		print_stacks(r, e);
		return;
	}
	out_row_open(stdout, fields, F_N, mask, v, 1);
	if (p->spec.has_fmt) {
		printf(",\"msg\":");
		json_str(stdout, msg ? msg : "");
		printf(",\"args\":");
		trace_json_args(stdout, &p->spec, &p->prog, e, size, r->ks,
				r->us);
	}
	json_stacks(r, e);
	fputs("}\n", stdout);
}

/* The fast line's pieces: u in decimal (two digits a step), and a string
 * that is its own escape (printable ASCII but '\\'; in JSON no '"'). */
static char *put_u32(char *p, uint32_t u)
{
	static const char d2[] =
		"000102030405060708091011121314151617181920212223242526272829"
		"303132333435363738394041424344454647484950515253545556575859"
		"606162636465666768697071727374757677787980818283848586878889"
		"90919293949596979899";
	char tmp[10], *t = tmp + sizeof(tmp);

	while (u >= 100) {
		t -= 2;
		t[0] = d2[(u % 100) * 2];
		t[1] = d2[(u % 100) * 2 + 1];
		u /= 100;
	}
	if (u >= 10) {
		t -= 2;
		t[0] = d2[u * 2];
		t[1] = d2[u * 2 + 1];
	} else {
		*--t = '0' + u;
	}
	while (t < tmp + sizeof(tmp))
		*p++ = *t++;
	return p;
}

static char *put_str(char *p, const char *s, size_t n)
{
	while (n--)
		*p++ = *s++;
	return p;
}

static char *put_pad(char *p, char *start, int width)
{
	while (p < start + width)
		*p++ = ' ';
	return p;
}

/* The length of s (at most max) if every byte of it is printable ASCII
 * but '\\' (and, for JSON, not '"'): as it is in either output.
 * Else -1. */
static int plain(const char *s, int max, int json)
{
	int i;

	for (i = 0; i < max && s[i]; i++)
		if (s[i] < 0x20 || s[i] > 0x7e || s[i] == '\\' ||
		    (json && s[i] == '"'))
			return -1;
	return i;
}

/*
 * The line of an event with no message and no stacks (the common case of
 * a busy stream: sys_enter_getppid at 3 million a second), built in one
 * buffer and written at once: out_row's bytes, a fifth of its time.
 * 0, or -1 where a string needs escaping (then out_row prints it).
 */
static int fast_event(const struct trace_run *r, const struct trace_event *e,
		      const char *comm, const char *func, int func_fixed)
{
	/* a stream's events mostly come from one task and one probe: the
	 * last comm's and func's checks hold again */
	static uint64_t last_comm[2];
	static const char *last_func;
	static int last_nc = -1, last_nf = -1;
	const struct trace_opts *o = r->o;
	char line[512], tbuf[32] = "", *p = line, *col;
	uint64_t cw[2];
	int nc, nf, nt = 0;

	memcpy(cw, comm, sizeof(cw));
	if (cw[0] != last_comm[0] || cw[1] != last_comm[1] || last_nc < 0) {
		last_nc = plain(comm, TRACE_COMM_LEN, o->json);
		memcpy(last_comm, cw, sizeof(cw));
	}
	nc = last_nc;
	if (!func_fixed || func != last_func) {
		last_nf = plain(func, 256, o->json);
		last_func = func_fixed ? func : NULL;
	}
	nf = last_nf;

	if (o->time || o->timestamp)
		event_time(r, e, tbuf, sizeof(tbuf));
	if (nc < 0 || nf < 0 || func[nf] || (nt = plain(tbuf, 32, 1)) < 0)
		return -1;
	if (o->json) {
		p = put_str(p, "{\"pid\":", 7);
		p = put_u32(p, e->tgid);
		p = put_str(p, ",\"tid\":", 7);
		p = put_u32(p, e->tid);
		p = put_str(p, ",\"comm\":\"", 9);
		p = put_str(p, comm, nc);
		p = put_str(p, "\",\"func\":\"", 10);
		p = put_str(p, func, nf);
		*p++ = '"';
		if (o->timestamp) {
			p = put_str(p, ",\"ts\":", 6);
			p = put_str(p, tbuf, nt);
		} else if (o->time) {
			p = put_str(p, ",\"time\":\"", 9);
			p = put_str(p, tbuf, nt);
			*p++ = '"';
		}
		if (o->cpu) {
			p = put_str(p, ",\"cpu\":", 7);
			p = put_u32(p, e->cpu);
		}
		*p++ = '}';
	} else {
		if (o->time || o->timestamp) {
			col = p;
			p = put_pad(put_str(p, tbuf, nt), col, 8);
			*p++ = ' ';
		}
		if (o->cpu) {
			col = p;
			p = put_pad(put_u32(p, e->cpu), col, 3);
			*p++ = ' ';
		}
		col = p;
		p = put_pad(put_u32(p, e->tgid), col, 7);
		*p++ = ' ';
		col = p;
		p = put_pad(put_u32(p, e->tid), col, 7);
		*p++ = ' ';
		col = p;
		p = put_pad(put_str(p, comm, nc), col, 15);
		*p++ = ' ';
		p = put_str(p, func, nf);
	}
	*p++ = '\n';
	fwrite(line, 1, p - line, stdout);
	trace_fast_lines++;
	return 0;
}

void trace_on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	static struct trace_event e; /* 4 KiB: not on the stack */
	static uint32_t last_size;
	struct trace_run *r = ctx;
	const struct trace_opts *o = r->o;
	const struct trace_probe *p;
	char comm[TRACE_COMM_LEN + 1], buf[32], *msg = NULL;
	const char *func;
	size_t mlen = 0;
	FILE *m;

	/* a probe sends its record's first rec_size bytes (bpf/trace.h),
	 * at least the head; the rest reads as 0 */
	if (size < TRACE_EVENT_HEAD)
		return;
	if (size > sizeof(e))
		size = sizeof(e);
	/* a constant size: copied inline (musl's memcpy sets up a `rep
	 * movs` for every call, a tenth of a streamed event's time) */
	memcpy(&e, data, TRACE_EVENT_HEAD);
	if (size > TRACE_EVENT_HEAD)
		memcpy((char *)&e + TRACE_EVENT_HEAD,
		       (const char *)data + TRACE_EVENT_HEAD,
		       size - TRACE_EVENT_HEAD);
	if (last_size > size)
		memset((char *)&e + size, 0, last_size - size);
	last_size = size;
	/* the ring's CPU: the program sent the record on the CPU it ran on
	 * (BPF_F_CURRENT_CPU) and reads it itself only for $cpu */
	e.cpu = cpu;
	r->received++;
	/* every stack taken counts, printed or not */
	if (o->kstack)
		stack_seen(r, &e, e.kstack);
	if (o->ustack)
		stack_seen(r, &e, e.ustack);
	if (r->done || e.probe >= (uint32_t)o->nprobes)
		return;
	p = &o->probes[e.probe];
	memcpy(comm, e.comm, TRACE_COMM_LEN);
	comm[TRACE_COMM_LEN] = 0;
	if (o->name && !strstr(comm, o->name))
		return;
	/* a probe without a format has an empty message: no stream (a
	 * malloc, a free and stdio's setup per event) */
	if (p->spec.fmt[0]) {
		m = open_memstream(&msg, &mlen);
		if (!m)
			return;
		trace_format(m, &p->spec, &p->prog, &e, size, r->ks, r->us);
		fclose(m);
	}
	if (o->msg && !strstr(msg ? msg : "", o->msg)) {
		free(msg);
		return;
	}
	/* Its maps now: it may be gone by the time a later event of it, or
	 * this one's stack, is printed. */
	if (r->us && e.ustack >= 0)
		usyms_add_pid(r->us, (int)e.tgid);
	func = func_name(r, p, &e, buf, sizeof(buf));
	if (!trace_fast || msg || p->spec.has_fmt || o->kstack || o->ustack ||
	    fast_event(r, &e, comm, func, func != buf) < 0)
		print_event(r, p, &e, size, comm, func, msg);
	free(msg);
	r->printed++;
	tool_output_failed();
	if (o->max_events && r->printed >= o->max_events)
		r->done = 1;
}

void trace_print_header(const struct trace_opts *o)
{
	int i, msgs = 0;

	for (i = 0; i < o->nprobes; i++)
		msgs |= o->probes[i].spec.has_fmt;
	out_head(stdout, fields, F_N, columns(o, msgs));
}

/* Calls the kernel did not run our programs for (see
 * bpf_prog_recursion_misses): never sent, so never counted as emitted. */
static uint64_t count_skipped(const struct trace_opts *o)
{
	uint64_t sum = 0, n;
	int i;

	for (i = 0; i < o->nprobes; i++) {
		struct bb_prog *p = o->probes[i].bprog;

		if (p && p->fd >= 0 &&
		    bpf_prog_recursion_misses(p->fd, &n) == 0)
			sum += n;
	}
	return sum;
}

/*
 * Every call is printed, or counted here: sent but not received (the ring
 * was full: the kernel's own count of lost records shows only once a later
 * record fits, the program's count does not wait), or never sent because
 * the kernel skipped the program.
 */
void trace_report_losses(struct tool_ctx *t, const struct trace_run *r,
			 struct bb_perfbuf *pb)
{
	uint64_t emitted, lost, skipped = count_skipped(r->o);

	lost = tool_ring_lost(t, pb, "counters", TRACE_CNT_EMITTED,
			      r->received, &emitted);
	if (t->verbose)
		fprintf(stderr, "events: %llu sent, %llu received, %llu "
			"printed, %llu reported lost by the kernel, %llu "
			"skipped\n", (unsigned long long)emitted,
			(unsigned long long)r->received,
			(unsigned long long)r->printed,
			(unsigned long long)perfbuf_lost(pb),
			(unsigned long long)skipped);
	if (lost)
		tool_error(t, "warning: %llu event(s) lost: the perf buffer "
			   "was full (output too slow for the event rate)",
			   (unsigned long long)lost);
	if (skipped)
		tool_error(t, "warning: %llu event(s) not seen: the kernel "
			   "skipped our program because another BPF program "
			   "was running on that CPU", (unsigned long long)skipped);
}

/*
 * Between drains, once the map in use fills: empty the other one and
 * switch to it. The other one's events were all sent before the last
 * switch; a whole drain begun since (two tool_wait calls, each draining
 * every ring) has read them. At most once a second.
 */
void trace_stack_maps_turn(struct trace_run *r, struct tool_ctx *t)
{
	uint32_t zero = 0, next = r->gen ^ 1;
	double now = bb_now_mono();

	r->drains++;
	if (!r->full || r->drains < 2 || now - r->switched < 1)
		return;
	stack_map_clear(r->stacks_fd[next], TRACE_STACK_ENTRIES);
	if (bpf_map_update_elem(r->gen_fd, &zero, &next, BPF_ANY) < 0)
		return;
	if (t->verbose)
		fprintf(stderr, "stack map %u filled (%d stacks, %d "
			"collisions): now map %u\n", r->gen, r->nseen,
			r->collisions, next);
	r->gen = next;
	memset(r->seen, 0, sizeof(r->seen));
	r->nseen = r->collisions = r->full = r->drains = 0;
	r->switched = now;
}
