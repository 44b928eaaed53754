/* SPDX-License-Identifier: MIT */
/*
 * barebpf run's output. Maps at exit: integers of 1, 2, 4 or 8 bytes as
 * numbers, anything else as hex bytes; per-CPU values one per CPU and
 * summed (each CPU's slot is rounded up to 8 bytes by the kernel: that
 * padding is not data); stack trace maps one stack per id, kernel frames
 * symbolized, ids probed one by one where the kernel lacks get_next_key
 * for stack maps (4.15); user frames named too where a map's BTF key pairs
 * a pid with a user stack id (bcc's profile and offcputime keys). Perf
 * samples are cut to the size the programs send (the kernel pads raw
 * samples to 8 bytes). bpf_trace_printk lines
 * come from trace_pipe, which is the whole machine's: every BPF program's
 * lines show, not only ours (no kernel tells them apart).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "btf.h"
#include "run_out.h"

static int is_int_size(uint32_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

static uint64_t le_val(const unsigned char *p, uint32_t n)
{
	uint64_t v = 0;
	uint32_t i;

	for (i = 0; i < n && i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void print_bytes(const unsigned char *p, uint32_t n, int json)
{
	uint32_t i;

	if (json)
		putchar('"');
	for (i = 0; i < n; i++)
		printf("%02x%s", p[i], i + 1 < n ? " " : "");
	if (json)
		putchar('"');
}

static void print_value(const unsigned char *p, uint32_t n, int json)
{
	if (is_int_size(n))
		printf("%llu", (unsigned long long)le_val(p, n));
	else
		print_bytes(p, n, json);
}

/*
 * A value by its BTF type (libbpf-style objects): structs as their
 * fields, so that padding is never shown as data; char arrays as strings.
 * Returns 0, or -1 where the type does not describe the bytes (then the
 * caller prints them plainly).
 */
static int print_btf(const struct bb_btf *b, uint32_t id,
		     const unsigned char *p, uint32_t size, int json, int depth)
{
	struct btf_t t;
	uint32_t sz, elem, n, i;

	if (!b || depth > 4 || btf_skip_mods(b, id, &t) < 0 ||
	    btf_size(b, id, &sz) < 0 || sz > size)
		return -1;
	switch (t.kind) {
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
		if (!is_int_size(sz))
			return -1;
		if (t.kind == BTF_KIND_INT &&
		    (btf_int_encoding(&t) & BTF_INT_SIGNED))
			printf("%lld", (long long)(sz == 8 ? (int64_t)le_val(p, 8) :
				sz == 4 ? (int32_t)le_val(p, 4) :
				sz == 2 ? (int16_t)le_val(p, 2) :
				(int8_t)le_val(p, 1)));
		else
			printf("%llu", (unsigned long long)le_val(p, sz));
		return 0;
	case BTF_KIND_PTR:
		printf(json ? "\"0x%llx\"" : "0x%llx",
		       (unsigned long long)le_val(p, 8));
		return 0;
	case BTF_KIND_ARRAY: {
		struct btf_t et;
		uint32_t esz;

		btf_array(&t, &elem, &n);
		if (btf_skip_mods(b, elem, &et) < 0 ||
		    btf_size(b, elem, &esz) < 0 || !esz)
			return -1;
		if (et.kind == BTF_KIND_INT && esz == 1) { /* char[] */
			char str[256];
			uint32_t k;

			for (k = 0; k < n && k < sizeof(str) - 1 && p[k]; k++)
				str[k] = p[k] >= 32 && p[k] < 127 ? p[k] : '?';
			str[k] = 0;
			if (json)
				json_str(stdout, str);
			else
				printf("\"%s\"", str);
			return 0;
		}
		printf("[");
		for (i = 0; i < n; i++) {
			printf("%s", i ? "," : "");
			if (print_btf(b, elem, p + i * esz, esz, json,
				      depth + 1) < 0)
				print_bytes(p + i * esz, esz, json);
		}
		printf("]");
		return 0;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		printf("{");
		for (i = 0; i < t.vlen; i++) {
			struct btf_member m;
			uint32_t msz;

			btf_member_at(b, &t, i, &m);
			if (m.offset % 8 || btf_size(b, m.type, &msz) < 0 ||
			    m.offset / 8 > sz || msz > sz - m.offset / 8)
				continue; /* bitfields: not shown */
			if (json) {
				printf("%s", i ? "," : "");
				json_str(stdout, m.name);
				putchar(':');
			} else {
				printf("%s%s=", i ? ", " : "", m.name);
			}
			if (print_btf(b, m.type, p + m.offset / 8, msz, json,
				      depth + 1) < 0)
				print_bytes(p + m.offset / 8, msz, json);
		}
		printf("}");
		return 0;
	}
	return -1;
}

static const struct bb_btf *out_btf;

/* A key or value: by BTF where the map has a type, else as bytes. */
static void print_typed(uint32_t id, const unsigned char *p, uint32_t n,
			int json)
{
	if (id && print_btf(out_btf, id, p, n, json, 0) == 0)
		return;
	print_value(p, n, json);
}

static int is_percpu(uint32_t type)
{
	return type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static void print_entry(const struct bb_map *m, const unsigned char *key,
			const unsigned char *val, int ncpus, int json)
{
	uint32_t vs = m->def.value_size, slot = (vs + 7) & ~7u;
	int c;

	if (json) {
		printf("{\"map\":");
		json_str(stdout, m->name);
		printf(",\"key\":");
		print_typed(m->btf_key, key, m->def.key_size, 1);
	} else {
		printf("  ");
		print_typed(m->btf_key, key, m->def.key_size, 0);
		printf(": ");
	}
	if (!is_percpu(m->def.type)) {
		if (json)
			printf(",\"value\":");
		print_typed(m->btf_value, val, vs, json);
		printf(json ? "}\n" : "\n");
		return;
	}
	if (is_int_size(vs)) {
		uint64_t sum = 0;

		for (c = 0; c < ncpus; c++)
			sum += le_val(val + c * slot, vs);
		printf(json ? ",\"sum\":%llu" : "%llu", (unsigned long long)sum);
	}
	printf(json ? ",\"cpus\":[" : is_int_size(vs) ? " (" : "");
	for (c = 0; c < ncpus; c++) {
		if (json)
			printf("%s", c ? "," : "");
		else
			printf("%scpu%d ", c ? ", " : "", c);
		print_value(val + c * slot, vs, json);
	}
	printf(json ? "]}\n" : is_int_size(vs) ? ")\n" : "\n");
}

/*
 * Which process a user stack id came from. A stack map does not keep it;
 * a map whose BTF key is a struct with a 4-byte member named pid or tgid
 * and a 4-byte member named like a user stack id (user_stack_id,
 * user_stackid, ustack_id, ustack, user_stack) says it, for every id its
 * keys hold (the first pid seen; a stack id is a hash of the addresses,
 * so processes that share it share them).
 */
struct ustack_pid {
	uint32_t id;
	int pid;
};
static struct ustack_pid *upids;
static int nupids;
static struct bb_usyms *out_usyms;

static int is_ustack_member(const char *n)
{
	return !strcmp(n, "user_stack_id") || !strcmp(n, "user_stackid") ||
	       !strcmp(n, "ustack_id") || !strcmp(n, "ustack") ||
	       !strcmp(n, "user_stack");
}

/* The byte offsets of the pid and user stack id members of a map's key. */
static int ustack_key(const struct bb_map *m, uint32_t *pid_off,
		      uint32_t *id_off)
{
	const struct bb_btf *b = out_btf;
	struct btf_t t;
	int have_pid = 0, have_id = 0;
	uint16_t i;

	if (!b || !m->btf_key || btf_skip_mods(b, m->btf_key, &t) < 0 ||
	    t.kind != BTF_KIND_STRUCT)
		return 0;
	for (i = 0; i < t.vlen; i++) {
		struct btf_member mb;
		uint32_t sz;

		btf_member_at(b, &t, i, &mb);
		if (mb.offset % 8 || btf_size(b, mb.type, &sz) < 0 || sz != 4 ||
		    mb.offset / 8 + 4 > m->def.key_size)
			continue;
		if (!have_pid && (!strcmp(mb.name, "pid") ||
				  !strcmp(mb.name, "tgid"))) {
			*pid_off = mb.offset / 8;
			have_pid = 1;
		} else if (!have_id && is_ustack_member(mb.name)) {
			*id_off = mb.offset / 8;
			have_id = 1;
		}
	}
	return have_pid && have_id;
}

static int pid_of_ustack(uint32_t id)
{
	int i;

	for (i = 0; i < nupids; i++)
		if (upids[i].id == id)
			return upids[i].pid;
	return -1;
}

static void collect_ustack_pids(struct bb_obj *obj)
{
	int i;

	for (i = 0; i < obj_nmaps(obj); i++) {
		const struct bb_map *m = obj_map_at(obj, i);
		uint32_t pid_off = 0, id_off = 0;
		unsigned char *key, *next;
		int first = 1;

		if (m->fd < 0 || (m->def.type != BPF_MAP_TYPE_HASH &&
				  m->def.type != BPF_MAP_TYPE_LRU_HASH &&
				  m->def.type != BPF_MAP_TYPE_PERCPU_HASH) ||
		    !ustack_key(m, &pid_off, &id_off))
			continue;
		key = calloc(1, m->def.key_size);
		next = calloc(1, m->def.key_size);
		while (key && next &&
		       bpf_map_get_next_key(m->fd, first ? NULL : key, next) ==
			       0) {
			int32_t id, pid;
			void *a;

			first = 0;
			memcpy(key, next, m->def.key_size);
			memcpy(&id, key + id_off, 4);
			memcpy(&pid, key + pid_off, 4);
			if (id < 0 || pid <= 0 || pid_of_ustack(id) >= 0)
				continue;
			a = realloc(upids, (nupids + 1) * sizeof(*upids));
			if (!a)
				break;
			upids = a;
			upids[nupids].id = id;
			upids[nupids++].pid = pid;
			/* its maps now, while it may still run */
			if (out_usyms)
				usyms_add_pid(out_usyms, pid);
		}
		free(key);
		free(next);
	}
}

static void print_stack(const struct bb_map *m, uint32_t id,
			const uint64_t *ips, int n, const struct bb_ksyms *ks,
			int json)
{
	int i, pid = -1, user = n > 0;

	for (i = 0; i < n; i++)
		user &= (int64_t)ips[i] >= 0;
	if (user && out_usyms)
		pid = pid_of_ustack(id);
	if (json) {
		printf("{\"map\":");
		json_str(stdout, m->name);
		printf(",\"stackid\":%u", id);
		if (pid > 0) {
			printf(",\"pid\":%d,\"stack\":", pid);
			stack_json_user(stdout, out_usyms, pid, ips, n);
		} else {
			printf(",\"stack\":");
			stack_json_kernel(stdout, ks, ips, n);
		}
		printf("}\n");
		return;
	}
	if (pid > 0) {
		printf("  stack %u (pid %d):\n", id, pid);
		stack_print_user(stdout, out_usyms, pid, ips, n, "    ");
		return;
	}
	printf("  stack %u:\n", id);
	for (i = 0; i < n; i++) {
		/* user addresses cannot be named without the process: a stack
		 * map does not keep it, and no key said it (ustack_key) */
		if ((int64_t)ips[i] >= 0)
			printf("    0x%llx [user]\n", (unsigned long long)ips[i]);
		else
			stack_print_kernel(stdout, ks, ips + i, 1, "    ");
	}
}

static void dump_stacks(const struct bb_map *m, int json)
{
	struct bb_ksyms *ks = NULL;
	uint64_t *ips = calloc(BB_MAX_STACK, sizeof(*ips));
	uint32_t id, next, max = m->def.value_size / 8;
	int n;

	if (!ips)
		return;
	if (max > BB_MAX_STACK)
		max = BB_MAX_STACK;
	ksyms_load(&ks, "/proc/kallsyms", NULL);
	if (!json)
		printf("map %s (stack traces):\n", m->name);
	/* 4.15's stack maps have no get_next_key: probe every id */
	if (bpf_map_get_next_key(m->fd, NULL, &next) == 0) {
		do {
			id = next;
			n = stack_read(m->fd, id, ips, max);
			if (n > 0)
				print_stack(m, id, ips, n, ks, json);
		} while (bpf_map_get_next_key(m->fd, &id, &next) == 0);
	} else {
		/* an id is a hash bucket, and the kernel makes max_entries
		 * a power of two of them (stack_map_alloc): 10000 entries
		 * give ids up to 16383 */
		uint32_t nb = 1;

		while (nb < m->def.max_entries && nb < 1u << 31)
			nb <<= 1;
		for (id = 0; id < nb; id++) {
			n = stack_read(m->fd, id, ips, max);
			if (n > 0)
				print_stack(m, id, ips, n, ks, json);
		}
	}
	ksyms_free(ks);
	free(ips);
}

static void dump_map(const struct bb_map *m, int json)
{
	unsigned char *key, *next, *val;
	int ncpus = bb_ncpus_possible(), first = 1;
	size_t vsize;

	if (m->fd < 0 || m->def.type == BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
	    m->def.type == BPF_MAP_TYPE_PROG_ARRAY)
		return;
	/* .rodata is what the object (and -c) set: not an outcome */
	if (m->origin == BB_MAP_DATA && !strncmp(m->name, ".rodata", 7))
		return;
	if (m->def.type == BPF_MAP_TYPE_STACK_TRACE) {
		dump_stacks(m, json);
		return;
	}
	if (ncpus <= 0)
		ncpus = 1;
	vsize = is_percpu(m->def.type) ?
		((m->def.value_size + 7) & ~7u) * (size_t)ncpus :
		m->def.value_size;
	key = calloc(1, m->def.key_size ? m->def.key_size : 1);
	next = calloc(1, m->def.key_size ? m->def.key_size : 1);
	val = calloc(1, vsize ? vsize : 1);
	if (!key || !next || !val)
		goto out;
	if (!json)
		printf("map %s:\n", m->name);
	while (bpf_map_get_next_key(m->fd, first ? NULL : key, next) == 0) {
		first = 0;
		memcpy(key, next, m->def.key_size);
		if (bpf_map_lookup_elem(m->fd, key, val) < 0)
			continue;
		print_entry(m, key, val, is_percpu(m->def.type) ? ncpus : 1,
			    json);
	}
out:
	free(key);
	free(next);
	free(val);
}

void run_print_maps(struct bb_obj *obj, int json)
{
	int i;

	out_btf = obj_btf(obj);
	if (usyms_new(&out_usyms) < 0)
		out_usyms = NULL;
	collect_ustack_pids(obj);
	for (i = 0; i < obj_nmaps(obj); i++)
		dump_map(obj_map_at(obj, i), json);
	usyms_free(out_usyms);
	out_usyms = NULL;
	free(upids);
	upids = NULL;
	nupids = 0;
}

void run_print_sample(const struct bb_map *m, int cpu, const void *data,
		      uint32_t size, int json)
{
	if (m && m->sample_size && m->sample_size < size)
		size = m->sample_size;
	if (json) {
		printf("{\"map\":");
		json_str(stdout, m ? m->name : "");
		printf(",\"cpu\":%d,\"sample\":", cpu);
		print_bytes(data, size, 1);
		printf("}\n");
		return;
	}
	printf("cpu %d: ", cpu);
	print_bytes(data, size, 0);
	putchar('\n');
}

/* ---- bpf_trace_printk ---- */

struct run_printk {
	int fd;
	char buf[8192];
	size_t len;
};

struct run_printk *run_printk_open(struct tool_ctx *t, const char *tracefs)
{
	struct run_printk *r = calloc(1, sizeof(*r));
	char path[512], on[8] = "";

	if (!r)
		return NULL;
	snprintf(path, sizeof(path), "%s/tracing_on", tracefs);
	if (bb_read_small(path, on, sizeof(on)) > 0 && on[0] == '0')
		tool_error(t, "warning: %s is 0: bpf_trace_printk lines are "
			   "not recorded (echo 1 > %s)", path, path);
	snprintf(path, sizeof(path), "%s/trace_pipe", tracefs);
	r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0) {
		tool_error(t, "warning: cannot open %s (%s): bpf_trace_printk "
			   "lines are not shown", path, strerror(errno));
		free(r);
		return NULL;
	}
	return r;
}

int run_printk_fd(const struct run_printk *r)
{
	return r ? r->fd : -1;
}

/*
 * "  comm-pid  [cpu] flags  ts: bpf_trace_printk: msg" (5.9+), or before
 * that "... ts: 0x00000001: msg" (trace_printk with ip 1). Lines of other
 * kinds (markers, function tracer) are not BPF's: skipped.
 */
static void printk_line(char *line, int json)
{
	static const char *const tags[] = { ": bpf_trace_printk: ",
					    ": 0x00000001: ", ": 0x1: " };
	char *msg = NULL, *task = line, *end;
	size_t i;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]) && !msg; i++) {
		char *p = strstr(line, tags[i]);

		if (p) {
			*p = 0;
			msg = p + strlen(tags[i]);
		}
	}
	if (!msg)
		return;
	while (*task == ' ')
		task++;
	end = strchr(task, '[');
	if (end) {
		*end = 0;
		while (end > task && end[-1] == ' ')
			*--end = 0;
	}
	if (!json) {
		/* the kernel's text, and a task's name */
		printf("printk: ");
		out_text(stdout, task);
		printf(": ");
		out_text(stdout, msg);
		putchar('\n');
		return;
	}
	printf("{\"printk\":");
	json_str(stdout, msg);
	printf(",\"task\":");
	json_str(stdout, task);
	printf("}\n");
}

void run_printk_poll(struct run_printk *r, int json)
{
	ssize_t n;

	if (!r)
		return;
	while ((n = read(r->fd, r->buf + r->len, sizeof(r->buf) - 1 - r->len))
	       > 0) {
		char *line = r->buf, *nl;

		r->len += n;
		r->buf[r->len] = 0;
		while ((nl = strchr(line, '\n'))) {
			*nl = 0;
			printk_line(line, json);
			line = nl + 1;
		}
		r->len -= line - r->buf;
		memmove(r->buf, line, r->len);
		if (r->len == sizeof(r->buf) - 1)
			r->len = 0; /* a line longer than the buffer: dropped */
	}
}

void run_printk_close(struct run_printk *r)
{
	if (!r)
		return;
	close(r->fd);
	free(r);
}
