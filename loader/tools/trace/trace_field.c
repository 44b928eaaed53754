/* SPDX-License-Identifier: MIT */
/*
 * trace's VALUE->member (sk->__sk_common.skc_dport,
 * ((struct sock *)retval)->sk_state): where each member lies, from the
 * field-offset layer (loader/kernel/fieldoff.h: the kernel's BTF, or the
 * file of --btf), before trace_spec_compile. trace has no discovery of
 * its own: without BTF, a field is refused with the way to give one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "fieldoff.h"
#include "trace_tool.h"

/*
 * struct sock's sk_X is the kernel's macro for __sk_common.skc_X
 * (include/net/sock.h): what bcc's C sees through the headers, BTF does
 * not have.
 */
static int find(struct bb_fieldoff *fo, const struct trace_value *v,
		struct bb_field *f, char *path, size_t len, struct bb_err *err)
{
	int ret;

	snprintf(path, len, "%s.%s", v->strct, v->path);
	ret = fieldoff_find(fo, path, f, err);
	if (ret != -ENOENT || strcmp(v->strct, "sock") ||
	    strncmp(v->path, "sk_", 3))
		return ret;
	snprintf(path, len, "sock.__sk_common.skc_%s", v->path + 3);
	if (fieldoff_find(fo, path, f, &(struct bb_err){ "" }) == 0)
		return 0;
	snprintf(path, len, "%s.%s", v->strct, v->path);
	return ret;
}

static int place(struct tool_ctx *t, struct bb_fieldoff *fo,
		 const struct trace_probe *p, struct trace_value *v)
{
	struct bb_err err = { "" };
	struct bb_field f;
	char path[160];

	if (!v->deref)
		return 0;
	if (p->spec.lib[0])
		return tool_fail(t, -EINVAL, "probe '%s': '%s': fields are "
				 "read from the kernel's structs, not in a "
				 "user-space probe", p->arg, v->text);
	if (find(fo, v, &f, path, sizeof(path), &err) < 0)
		return tool_fail(t, -EINVAL, "probe '%s': '%s': %s%s", p->arg,
				 v->text, err.msg, t->btf_file ||
				 fieldoff_have_btf(fo) ? "" : " (without "
				 "BTF, only the fields a tool discovers for "
				 "itself can be placed, as runqlen's "
				 "rq.nr_running; trace has no discovery: it "
				 "needs BTF)");
	if (f.size != 1 && f.size != 2 && f.size != 4 && f.size != 8)
		return tool_fail(t, -EINVAL, "probe '%s': '%s': %s is %u "
				 "bytes, not a number of 1, 2, 4 or 8 bytes "
				 "(a struct or an array): name a member of "
				 "it", p->arg, v->text, path, f.size);
	v->doff = f.offset;
	v->dsize = f.size;
	v->dsgn = f.is_signed;
	if (t->verbose)
		fprintf(stderr, "field %s: +%u, %u bytes, %s (%s)\n", path,
			f.offset, f.size, f.is_signed ? "signed" : "unsigned",
			f.how);
	return 0;
}

int trace_field_place(struct tool_ctx *t, struct trace_opts *o)
{
	struct bb_fieldoff fo;
	int i, j, ret = 0;

	fieldoff_init(&fo, t->btf_file);
	for (i = 0; i < o->nprobes && !ret; i++) {
		struct trace_probe *p = &o->probes[i];

		for (j = 0; j < p->spec.nconv && !ret; j++)
			ret = place(t, &fo, p, &p->spec.args[j]);
		for (j = 0; j < p->spec.nterms && !ret; j++)
			ret = place(t, &fo, p, &p->spec.terms[j].v);
	}
	fieldoff_close(&fo);
	return ret;
}
