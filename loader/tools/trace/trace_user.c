/* SPDX-License-Identifier: MIT */
/*
 * trace's user-space probes: a uprobe's function (p:LIB:FUNC) and a USDT
 * probe's sites and arguments (u:LIB:PROBE), found before anything is
 * loaded so that a wrong name is said first (trace_tool.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace_tool.h"
#include "usdt.h"

/* a USDT probe's ways of keeping its arguments, past the first (libjvm's
 * probes have up to 3) */
#define USDT_MAX_ALTS 7

/*
 * A uprobe's function, found now so that a wrong name is said before any
 * loading; attached as "LIB:FUNC" (the session resolves it again, the
 * same way). One function: the FUNC column is its name, and a record
 * does not say which of a glob's functions it came from.
 */
static int uprobe_resolve_name(const struct trace_probe *p, int pid,
			       char *path, size_t len, uint64_t *off,
			       struct bb_err *err)
{
	char spec[TRACE_NAME_MAX + 300];

	snprintf(spec, sizeof(spec), "%s:%s", p->spec.lib, p->spec.func);
	return uprobe_resolve(spec, pid, path, len, off, err);
}

int trace_find_user_function(struct tool_ctx *t, struct trace_probe *p,
			     int pid, int *total)
{
	struct bb_err err = { "" };
	char path[4096], *target;
	uint64_t off;
	size_t n;

	if (trace_spec_is_glob(&p->spec))
		return tool_fail(t, -EINVAL, "probe '%s': a uprobe takes one "
				 "function, not a pattern (funccount "
				 "counts the functions of a pattern)",
				 p->arg);
	n = strlen(p->spec.lib) + strlen(p->spec.func) + 2;
	if (uprobe_resolve_name(p, pid, path, sizeof(path), &off, &err) < 0)
		return tool_fail(t, -EINVAL, "probe '%s': %s", p->arg,
				 err.msg);
	p->funcs = malloc(sizeof(*p->funcs));
	target = malloc(n);
	if (!p->funcs || !target) {
		free(target);
		return tool_fail(t, -ENOMEM, "out of memory");
	}
	snprintf(target, n, "%s:%s", p->spec.lib, p->spec.func);
	p->funcs[0] = target;
	p->nfuncs = 1;
	(*total)++;
	if (t->verbose)
		fprintf(stderr, "probe '%s': %s at offset 0x%llx of %s\n",
			p->arg, p->spec.func, (unsigned long long)off, path);
	return 0;
}

/* Does probe p read an argument (in its format or its filter)? */
static int uses_args(const struct trace_spec *sp)
{
	int i;

	for (i = 0; i < sp->nconv; i++)
		if (sp->args[i].kind == TV_ARG)
			return 1;
	for (i = 0; i < sp->nterms; i++)
		if (sp->terms[i].v.kind == TV_ARG)
			return 1;
	return 0;
}

static int usdt_matches(const struct trace_spec *sp,
			const struct usdt_note *n)
{
	return !strcmp(n->name, sp->func) &&
	       (!sp->provider[0] || !strcmp(n->provider, sp->provider));
}

/* "provider:name" of every probe of uf, each once, into list. */
static void usdt_list(const struct usdt_file *uf, char *list, size_t len)
{
	size_t n = 0;
	int i, j;

	list[0] = 0;
	for (i = 0; i < uf->nnotes && n < len; i++) {
		const struct usdt_note *a = &uf->notes[i];

		for (j = 0; j < i; j++)
			if (!strcmp(uf->notes[j].name, a->name) &&
			    !strcmp(uf->notes[j].provider, a->provider))
				break;
		if (j == i)
			n += snprintf(list + n, len - n, "%s%s:%s",
				      n ? ", " : "", a->provider, a->name);
	}
	if (n >= len && len > 4)
		strcpy(list + len - 4, "...");
}

/*
 * Sites of probe p whose arguments are elsewhere than at the first
 * (first->args; the compiler placed them anew where the probe was
 * inlined or duplicated): a program copy per other place, p->alt, and
 * each site's in p->site_alt (in the order of the notes).
 */
static int usdt_alts(struct tool_ctx *t, struct trace_probe *p,
		     const struct usdt_file *uf, const struct usdt_note *first,
		     int n, const char *path)
{
	const char *seen[USDT_MAX_ALTS + 1];
	struct bb_err err = { "" };
	int i, k, site = 0, ret;

	seen[0] = first->args;
	for (i = 0; i < uf->nnotes; i++) {
		const struct usdt_note *a = &uf->notes[i];

		if (!usdt_matches(&p->spec, a))
			continue;
		for (k = 0; k <= p->nalt && strcmp(seen[k], a->args); k++)
			;
		if (k > p->nalt) {
			struct trace_usdt_alt *m;

			if (p->nalt == USDT_MAX_ALTS)
				return tool_fail(t, -E2BIG, "probe '%s': its "
						 "sites in %s keep their "
						 "arguments in more than %d "
						 "ways", p->arg, path,
						 USDT_MAX_ALTS + 1);
			m = realloc(p->alt, (p->nalt + 1) * sizeof(*m));
			if (!m)
				return tool_fail(t, -ENOMEM, "out of memory");
			p->alt = m;
			m = &p->alt[p->nalt];
			memset(m, 0, sizeof(*m));
			ret = usdt_args_parse(a->args, uf->machine, m->uargs,
					      USDT_MAX_ARGS, &err);
			if (ret < 0 && uses_args(&p->spec))
				return tool_fail(t, ret, "probe '%s': %s (in "
						 "%s)", p->arg, err.msg, path);
			m->nuargs = ret > 0 ? ret : 0;
			seen[++p->nalt] = a->args;
		}
		if (k && !p->site_alt) {
			p->site_alt = calloc(n, sizeof(*p->site_alt));
			if (!p->site_alt)
				return tool_fail(t, -ENOMEM, "out of memory");
		}
		if (p->site_alt)
			p->site_alt[site] = k;
		site++;
	}
	return 0;
}

/* One uprobe per site of probe p: "LIB:0xOFFSET", with "(0xSEMAPHORE)"
 * where a semaphore guards it, into p->funcs. */
static int usdt_targets(struct tool_ctx *t, struct trace_probe *p,
			const struct usdt_file *uf, const char *path, int n)
{
	const struct trace_spec *sp = &p->spec;
	int i;

	p->funcs = calloc(n, sizeof(*p->funcs));
	if (!p->funcs)
		return tool_fail(t, -ENOMEM, "out of memory");
	for (i = 0; i < uf->nnotes; i++) {
		const struct usdt_note *a = &uf->notes[i];
		char target[sizeof(sp->lib) + 48];

		if (!usdt_matches(sp, a))
			continue;
		if (a->sema_off)
			snprintf(target, sizeof(target), "%s:0x%llx(0x%llx)",
				 sp->lib, (unsigned long long)a->pc_off,
				 (unsigned long long)a->sema_off);
		else
			snprintf(target, sizeof(target), "%s:0x%llx", sp->lib,
				 (unsigned long long)a->pc_off);
		/* the session keeps a target in bb_link's target[] */
		if (strlen(target) >= sizeof(((struct bb_link *)0)->target))
			return tool_fail(t, -ENAMETOOLONG, "probe '%s': '%s' "
					 "is too long a path for a probe",
					 p->arg, sp->lib);
		p->funcs[p->nfuncs] = strdup(target);
		if (!p->funcs[p->nfuncs])
			return tool_fail(t, -ENOMEM, "out of memory");
		p->nfuncs++;
		if (t->verbose)
			fprintf(stderr, "probe '%s': %s:%s at offset 0x%llx of "
				"%s%s, arguments '%s'\n", p->arg, a->provider,
				a->name, (unsigned long long)a->pc_off, path,
				a->sema_off ? " (semaphore)" : "", a->args);
	}
	return 0;
}

/*
 * The sites of USDT probe p in its file (.note.stapsdt): one uprobe each,
 * "LIB:0xOFFSET", with "(0xSEMAPHORE)" where a semaphore guards it (the
 * kernel raises it while the probe is in, 4.20+). Its arguments go into
 * p->spec for trace_spec_compile: one program serves every site, so the
 * sites must agree on where the arguments are.
 */
int trace_find_usdt_probe(struct tool_ctx *t, struct trace_probe *p, int pid,
			  int *total)
{
	struct trace_spec *sp = &p->spec;
	struct bb_err err = { "" };
	struct usdt_file uf;
	const struct usdt_note *first = NULL;
	char path[4096], list[1024];
	int ret, i, n = 0, sema = 0;

	ret = ulib_resolve(sp->lib, pid, path, sizeof(path));
	if (ret < 0)
		return tool_fail(t, ret, "probe '%s': cannot find library or "
				 "program '%s' (ld.so.cache, LD_LIBRARY_PATH, "
				 "/lib, /usr/lib, PATH): %s", p->arg, sp->lib,
				 strerror(-ret));
	ret = usdt_file_read(path, &uf);
	if (ret < 0)
		return tool_fail(t, ret, "probe '%s': cannot read the USDT "
				 "notes of %s: %s", p->arg, path,
				 bb_elf_strerror(ret));
	for (i = 0; i < uf.nnotes; i++)
		if (usdt_matches(sp, &uf.notes[i])) {
			const struct usdt_note *a = &uf.notes[i];

			if (!first)
				first = a;
			if (strcmp(a->provider, first->provider)) {
				ret = tool_fail(t, -EINVAL, "probe '%s': "
						"providers %s and %s both have "
						"a probe %s in %s: name one "
						"(u:%s:PROVIDER:%s)", p->arg,
						first->provider, a->provider,
						sp->func, path, sp->lib,
						sp->func);
				goto out;
			}
			n++;
			sema |= a->sema_off != 0;
		}
	if (!n) {
		usdt_list(&uf, list, sizeof(list));
		ret = tool_fail(t, -ENOENT, "probe '%s': no USDT probe %s%s%s "
				"in %s (%s%s)", p->arg, sp->provider,
				sp->provider[0] ? ":" : "", sp->func, path,
				uf.nnotes ? "its probes: " : "it has no USDT "
				"probes: no .note.stapsdt", list);
		goto out;
	}
	if (uf.machine != usdt_machine_native()) {
		ret = tool_fail(t, -ENOEXEC, "probe '%s': %s is a program for "
				"%s; this barebpf runs on %s", p->arg, path,
				usdt_machine_name(uf.machine),
				usdt_machine_name(usdt_machine_native()));
		goto out;
	}
	ret = usdt_args_parse(first->args, uf.machine, sp->uargs,
			      USDT_MAX_ARGS, &err);
	sp->nuargs = ret > 0 ? ret : 0;
	/* an operand we cannot read matters only to who reads it */
	if (ret < 0 && uses_args(sp)) {
		ret = tool_fail(t, ret, "probe '%s': %s (in %s)", p->arg,
				err.msg, path);
		goto out;
	}
	ret = usdt_alts(t, p, &uf, first, n, path);
	if (ret < 0)
		goto out;
	if (sema && !uprobe_ref_ctr_available()) {
		ret = tool_fail(t, -EOPNOTSUPP, "probe '%s': %s:%s is guarded "
				"by a semaphore, and fires only while it is "
				"raised: that needs the kernel's reference "
				"counter for uprobes (ref_ctr_offset, Linux "
				"4.20+), which this kernel lacks", p->arg,
				first->provider, first->name);
		goto out;
	}
	ret = usdt_targets(t, p, &uf, path, n);
	if (ret < 0)
		goto out;
	*total += n;
	ret = 0;
out:
	usdt_file_free(&uf);
	return ret;
}

