/* SPDX-License-Identifier: MIT */
/* What this kernel has, for a tool: functions by name, glob or regex,
 * system call functions and tracepoints, tracepoint field offsets (tool.h). */
#include <errno.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"
#include "arch.h"

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int tool_funcs(struct tool_ctx *t, int source, const char *const *names,
	       int n, int need, char ***avail)
{
	struct bb_err err = { "" };
	const char *tfs = source == BB_FUNCS_FTRACE ? tool_tracefs(t) : "";
	char *found = calloc(n > 0 ? n : 1, 1);
	char **v = calloc(n > 0 ? n : 1, sizeof(*v));
	int i, k = 0, ret;

	*avail = NULL;
	if (!found || !v || !tfs) {
		if (tfs)
			tool_error(t, "out of memory");
		free(found);
		free(v);
		return tfs ? -ENOMEM : -ENOENT;
	}
	ret = kprobe_funcs_find(tfs, source, names, n, need, found, &err);
	if (ret < 0) {
		tool_error(t, "%s", err.msg);
		free(found);
		free(v);
		return ret;
	}
	for (i = 0; i < n; i++) {
		if (!found[i])
			continue;
		v[k] = strdup(names[i]);
		if (!v[k]) {
			bb_free_strv(v, k);
			free(found);
			return tool_fail(t, -ENOMEM, "out of memory");
		}
		k++;
	}
	qsort(v, k, sizeof(*v), cmp_strp);
	free(found);
	*avail = v;
	return k;
}

int tool_syscall_tracepoints(struct tool_ctx *t, const char *sys)
{
	const char *tfs = tool_tracefs(t), *force = getenv("BAREBPF_SYSCALLS");
	char path[512];
	int id;

	if (!tfs)
		return -ENOENT;
	if (force && !strcmp(force, "kprobes"))
		return 0;
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_%s", tfs,
		 sys);
	if (access(path, F_OK))
		return 0;
	/* before 4.14 they exist but take no BPF program: the kprobes */
	snprintf(path, sizeof(path), "sys_enter_%s", sys);
	id = tracefs_event_id(tfs, "syscalls", path);
	return id < 0 || perf_tp_bpf_ok(id);
}

int tool_syscall_funcs(struct tool_ctx *t, const char *const *sys, int n,
		       char (*out)[64])
{
	enum { MAXPRE = 8 };
	const char *pre[MAXPRE], *names[MAXPRE * 8] = { 0 };
	char cand[MAXPRE * 8][64], **avail;
	int i, j, k, m, npre = bb_arch_sys_prefixes(pre, MAXPRE, 0, 1);

	if (n > 8)
		return tool_fail(t, -EINVAL, "internal: too many syscalls");
	for (i = 0; i < n; i++)
		for (j = 0; j < npre; j++) {
			snprintf(cand[npre * i + j], 64, "%s%s", pre[j], sys[i]);
			names[npre * i + j] = cand[npre * i + j];
		}
	m = tool_funcs(t, BB_FUNCS_KALLSYMS, names, npre * n, 0, &avail);
	if (m < 0)
		return m;
	for (i = 0; i < n; i++) {
		out[i][0] = 0;
		for (j = 0; j < npre && !out[i][0]; j++)
			for (k = 0; k < m; k++)
				if (!strcmp(avail[k], cand[npre * i + j])) {
					strcpy(out[i], avail[k]);
					break;
				}
	}
	bb_free_strv(avail, m);
	return 0;
}

int tool_match_funcs(struct tool_ctx *t, const char *pattern, int regexp,
		     char ***names)
{
	struct bb_err err = { "" };
	const char *tfs = tool_tracefs(t);
	int n, i, k;
	regex_t re;

	*names = NULL;
	if (!tfs)
		return -ENOENT;
	if (!regexp && !strpbrk(pattern, "*?[")) {
		/* one name: a pass that stops where it is found */
		n = tool_funcs(t, BB_FUNCS_FTRACE, &pattern, 1, 1, names);
		if (n < 0)
			return n;
	} else {
		n = kprobe_match(tfs, regexp ? "*" : pattern, names, &err);
		if (n < 0)
			return tool_fail(t, -EINVAL, "%s", err.msg);
	}
	if (regexp) {
		if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB)) {
			bb_free_strv(*names, n);
			*names = NULL;
			return tool_fail(t, -EINVAL,
					 "bad regular expression '%s'",
					 pattern);
		}
		for (i = k = 0; i < n; i++) {
			if (!regexec(&re, (*names)[i], 0, NULL, 0))
				(*names)[k++] = (*names)[i];
			else
				free((*names)[i]);
		}
		regfree(&re);
		n = k;
	}
	if (n == 0) {
		free(*names);
		*names = NULL;
		return tool_fail(t, -EINVAL,
				 "no kernel function matches '%s' in "
				 "%s/available_filter_functions (it may not "
				 "exist on this kernel, be inlined or be "
				 "renamed: try a glob like '%s*')", pattern,
				 tfs, pattern);
	}
	return n;
}

int tool_tp_offset(struct tool_ctx *t, const char *cat, const char *event,
		   const char *field)
{
	struct bb_tp_field f;
	int ret = tool_tp_field(t, cat, event, field, &f);

	return ret < 0 ? ret : f.offset;
}

int tool_tp_field(struct tool_ctx *t, const char *cat, const char *event,
		  const char *field, struct bb_tp_field *out)
{
	struct bb_err err = { "" };
	const char *tfs = tool_tracefs(t);
	char name[sizeof(t->tp_event)];
	int ret;

	if (!tfs)
		return -ENOENT;
	snprintf(name, sizeof(name), "%s/%s", cat, event);
	if (strcmp(name, t->tp_event)) {
		free(t->tp_fields);
		t->tp_event[0] = 0;
		t->tp_nfields = tp_fields(tfs, cat, event, &t->tp_fields, &err);
		if (t->tp_nfields < 0) {
			tool_error(t, "%s", err.msg);
			return t->tp_nfields;
		}
		snprintf(t->tp_event, sizeof(t->tp_event), "%s", name);
	}
	ret = tp_fields_find(t->tp_fields, t->tp_nfields, tfs, cat, event,
			     field, out, &err);
	if (ret < 0) {
		tool_error(t, "%s", err.msg);
		return ret;
	}
	return 0;
}

/*
 * Drop the names in debugfs kprobes/blacklist ("0x<start>-0x<end>\t<name>"
 * or "...\t<name> [module]" a line); returns how many are left. Where
 * debugfs is not mounted, nothing is dropped (it is not mounted for this:
 * the kernel refuses those functions all the same, counted as refused).
 */
int tool_drop_blacklisted(struct tool_ctx *t, char **names, int n)
{
	const char *tfs = t->sess.tracefs;
	char dir[300], *text = NULL, *line, *tab, **bl = NULL;
	size_t len = strlen(tfs);
	int nbl = 0, cap = 0, i, k;

	/* debugfs is where tracefs is its tracing/, or in its usual place */
	if (len > 8 && !strcmp(tfs + len - 8, "/tracing"))
		snprintf(dir, sizeof(dir), "%.*s", (int)(len - 8), tfs);
	else
		snprintf(dir, sizeof(dir), "/sys/kernel/debug");
	if (tracefs_read(dir, "kprobes/blacklist", &text) < 0 &&
	    tracefs_read("/sys/kernel/debug", "kprobes/blacklist", &text) < 0) {
		if (t->verbose)
			fprintf(stderr, "no debugfs kprobes/blacklist to read: "
				"the kernel will refuse blacklisted functions\n");
		return n;
	}
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		tab = strchr(line, '\t');
		if (!tab)
			continue;
		tab[1 + strcspn(tab + 1, " \t")] = 0;
		if (nbl == cap) {
			char **nv;

			cap = cap ? cap * 2 : 256;
			nv = realloc(bl, cap * sizeof(*bl));
			if (!nv)
				break;
			bl = nv;
		}
		bl[nbl++] = tab + 1;
	}
	if (nbl)
		qsort(bl, nbl, sizeof(*bl), cmp_strp);
	for (i = k = 0; i < n; i++) {
		if (nbl && bsearch(&names[i], bl, nbl, sizeof(*bl), cmp_strp))
			free(names[i]);
		else
			names[k++] = names[i];
	}
	if (t->verbose)
		fprintf(stderr, "%d of %d matches left out: in "
			"kprobes/blacklist (%d names)\n", n - k, n, nbl);
	free(bl);
	free(text);
	return k;
}

int tool_match_tracepoints(struct tool_ctx *t, const char *pattern,
			   int regexp, char ***out)
{
	const char *tfs = tool_tracefs(t);
	char *text = NULL, *line, **v = NULL;
	int n = 0, cap = 0, ret;
	regex_t re;

	*out = NULL;
	if (!tfs)
		return -ENOENT;
	ret = tracefs_read(tfs, "available_events", &text);
	if (ret < 0)
		return tool_fail(t, -EINVAL,
				 "cannot read %s/available_events: %s", tfs,
				 strerror(-ret));
	if (regexp && regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB)) {
		free(text);
		return tool_fail(t, -EINVAL,
				 "bad regular expression '%s'", pattern);
	}
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (regexp ? regexec(&re, line, 0, NULL, 0) :
				fnmatch(pattern, line, 0))
			continue;
		if (n == cap) {
			char **nv;

			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto oom;
			v = nv;
		}
		v[n] = strdup(line);
		if (!v[n])
			goto oom;
		n++;
	}
	if (regexp)
		regfree(&re);
	free(text);
	if (!n)
		return tool_fail(t, -EINVAL, "no tracepoint matches '%s' in "
				 "%s/available_events (list them with `grep "
				 "CATEGORY: %s/available_events`)", pattern,
				 tfs, tfs);
	qsort(v, n, sizeof(*v), cmp_strp);
	*out = v;
	return n;
oom:
	if (regexp)
		regfree(&re);
	free(text);
	bb_free_strv(v, n);
	return tool_fail(t, -ENOMEM, "out of memory");
}

/* ---- user-space functions (uprobes) ---- */

struct ufunc {
	char *name;
	uint64_t off;
};

struct ufunc_list {
	const char *lib;
	struct ufunc *v;
	int n, cap;
};

static int ufunc_add(void *ctx, const char *name, uint64_t foff)
{
	struct ufunc_list *l = ctx;
	struct ufunc *v;
	size_t len = strlen(l->lib) + strlen(name) + 2;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		v = realloc(l->v, l->cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
	}
	l->v[l->n].name = malloc(len);
	if (!l->v[l->n].name)
		return -ENOMEM;
	snprintf(l->v[l->n].name, len, "%s:%s", l->lib, name);
	l->v[l->n++].off = foff;
	return 0;
}

static size_t underscores(const char *s)
{
	return strspn(strrchr(s, ':') + 1, "_");
}

/* By offset; among aliases the plainest name first: fewest leading
 * underscores (strtol before __strtol_internal), shortest, then A-Z. */
static int cmp_ufunc(const void *a, const void *b)
{
	const struct ufunc *x = a, *y = b;
	size_t ux = underscores(x->name), uy = underscores(y->name);

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (ux != uy)
		return ux < uy ? -1 : 1;
	if (strlen(x->name) != strlen(y->name))
		return strlen(x->name) < strlen(y->name) ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void ufuncs_free(struct ufunc_list *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
}

int tool_match_ufuncs(struct tool_ctx *t, const char *spec, int pid,
		      char ***names)
{
	struct ufunc_list l = { NULL, NULL, 0, 0 };
	const char *colon = strrchr(spec, ':');
	char lib[512], path[4096];
	int ret, i, k;

	*names = NULL;
	if (!colon || colon == spec || !colon[1] ||
	    (size_t)(colon - spec) >= sizeof(lib))
		return tool_fail(t, -EINVAL, "'%s': a user-space function is "
				 "LIBRARY:FUNCTION or /PATH:FUNCTION", spec);
	memcpy(lib, spec, colon - spec);
	lib[colon - spec] = 0;
	ret = ulib_resolve(lib, pid, path, sizeof(path));
	if (ret < 0)
		return tool_fail(t, ret, "'%s': cannot find library or program "
				 "'%s' (ld.so.cache, LD_LIBRARY_PATH, /lib, "
				 "/usr/lib, PATH): %s", spec, lib,
				 strerror(-ret));
	l.lib = lib;
	ret = elfsyms_lookup(path, colon + 1, ufunc_add, &l);
	if (ret == -EOPNOTSUPP) {
		ufuncs_free(&l);
		return tool_fail(t, ret, "'%s': only Thumb code matches in %s: "
				 "32-bit ARM kernels probe ARM code only", spec,
				 path);
	}
	if (ret < 0) {
		ufuncs_free(&l);
		return tool_fail(t, ret, "'%s': cannot read the symbols of "
				 "%s: %s", spec, path, bb_elf_strerror(ret));
	}
	if (!l.n) {
		ufuncs_free(&l);
		return tool_fail(t, -ENOENT, "'%s': no function matches '%s' "
				 "in %s (searched .symtab, .dynsym and the "
				 "MiniDebugInfo of .gnu_debugdata)", spec,
				 colon + 1, path);
	}
	/*
	 * One probe per address: aliases (strtol, strtoq, strtoimax) would
	 * each count every call, and a name may be in the table more than
	 * once (static functions of several files): the first is probed.
	 */
	qsort(l.v, l.n, sizeof(*l.v), cmp_ufunc);
	*names = malloc(l.n * sizeof(**names));
	if (!*names) {
		ufuncs_free(&l);
		return tool_fail(t, -ENOMEM, "out of memory");
	}
	for (i = 0, k = 0; i < l.n; i++) {
		int dup = i && l.v[i].off == l.v[i - 1].off, j;

		for (j = 0; !dup && j < k; j++)
			dup = !strcmp((*names)[j], l.v[i].name);
		if (dup)
			free(l.v[i].name);
		else
			(*names)[k++] = l.v[i].name;
	}
	free(l.v);
	qsort(*names, k, sizeof(**names), cmp_str);
	return k;
}

int tool_syscall_way(struct tool_ctx *t, const char *const *sys, int n,
		     char (*out)[64])
{
	int tps = tool_syscall_tracepoints(t, sys[0]);

	if (tps != 0)
		return tps;
	if (tool_need_kprobes(t) < 0 || tool_syscall_funcs(t, sys, n, out) < 0)
		return -EINVAL;
	if (!out[0][0])
		return tool_fail(t, -ENOENT, "this kernel has no syscall "
				 "tracepoints and no %s function in "
				 "/proc/kallsyms", sys[0]);
	return 0;
}
