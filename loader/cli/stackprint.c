/* SPDX-License-Identifier: MIT */
/*
 * Stacks as bcc's profile.py and offcputime.py print them (stackcount.h),
 * from frames already named: pure, no map read here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stackcount.h"
#include "flamegraph.h"
#include "output.h"

/* Append raw text to out at *at; -ENOSPC if it does not fit whole. */
static int put_raw(char *out, size_t len, size_t *at, const char *s)
{
	size_t n = strlen(s);

	if (*at + n + 1 > len)
		return -ENOSPC;
	memcpy(out + *at, s, n + 1);
	*at += n;
	return 0;
}

/* Append ";" (unless first), the frame escaped, then suffix. */
static int put_frame(char *out, size_t len, size_t *at, const char *name,
		     const char *suffix, int first)
{
	char buf[1024];

	fold_frame(buf, sizeof(buf), name);
	if (!first && put_raw(out, len, at, ";") < 0)
		return -ENOSPC;
	if (put_raw(out, len, at, buf) < 0)
		return -ENOSPC;
	return put_raw(out, len, at, suffix);
}

int stackcount_fold(char *out, size_t len, const char *comm,
		    int want_u, int uid, const char *const *unames, int un,
		    int want_k, int kid, const char *const *knames, int kn,
		    int delimited, uint64_t count)
{
	size_t at = 0;
	int i, ret = 0;
	char num[32];

	if (!len)
		return -ENOSPC;
	*out = 0;
	ret |= put_frame(out, len, &at, comm, "", 1);
	if (want_u && stackcount_stack_err(uid))
		ret |= put_raw(out, len, &at, ";[Missed User Stack]");
	else if (want_u)
		for (i = un - 1; i >= 0; i--)
			ret |= put_frame(out, len, &at, unames[i], "", 0);
	if (want_k && want_u && delimited && uid >= 0 && kid >= 0)
		ret |= put_raw(out, len, &at, ";-");
	if (want_k && stackcount_stack_err(kid))
		ret |= put_raw(out, len, &at, ";[Missed Kernel Stack]");
	else if (want_k)
		for (i = kn - 1; i >= 0; i--)
			ret |= put_frame(out, len, &at, knames[i], "_[k]", 0);
	snprintf(num, sizeof(num), " %llu", (unsigned long long)count);
	ret |= put_raw(out, len, &at, num);
	return ret ? -ENOSPC : (int)at;
}

static void text_frames(FILE *f, const char *const *names, int n, int id,
			const char *what)
{
	int i;

	if (stackcount_stack_err(id)) {
		fprintf(f, "    [Missed %s Stack]\n", what);
		return;
	}
	for (i = 0; i < n; i++) {
		fputs("    ", f);
		out_text(f, names[i]);
		fputc('\n', f);
	}
}

static void json_frames(FILE *f, const char *const *names, int n, int id)
{
	int i;

	if (stackcount_stack_err(id)) {
		/* why, as BPF said it (-EEXIST: its bucket was taken) */
		fprintf(f, "{\"error\":%d}", id);
		return;
	}
	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		json_str(f, names[i]);
	}
	fputc(']', f);
}

/* The folded line without its count; "[stack too long]" if over 64 KiB. */
static int folded(FILE *f, const struct stackcount_opts *o,
		  const struct stack_key *k, const char *comm,
		  const char *const *knames, int kn,
		  const char *const *unames, int un)
{
	enum { FOLD_MAX = 65536 };
	char *line = malloc(FOLD_MAX);
	int n;

	if (!line)
		return -ENOMEM;
	n = stackcount_fold(line, FOLD_MAX, comm, o->user, k->ustack, unames,
			    un, o->kernel, k->kstack, knames, kn, o->delimited,
			    0);
	if (n < 0)
		fputs("[stack too long]", f);
	else
		fwrite(line, 1, n - 2, f); /* less " 0" */
	free(line);
	return 0;
}

int stackcount_render(FILE *f, const struct stackcount_opts *o,
		      const struct stack_key *k, const char *const *knames,
		      int kn, const char *const *unames, int un)
{
	char comm[sizeof(k->comm) + 1];

	memcpy(comm, k->comm, sizeof(k->comm));
	comm[sizeof(k->comm)] = 0;
	if (o->json) {
		fprintf(f, "{\"pid\":%u,\"tgid\":%u,\"comm\":", k->pid,
			k->tgid);
		json_str(f, comm);
		if (o->kernel) {
			fputs(",\"kstack\":", f);
			json_frames(f, knames, kn, k->kstack);
		}
		if (o->user) {
			fputs(",\"ustack\":", f);
			json_frames(f, unames, un, k->ustack);
		}
		return 0;
	}
	if (o->folded)
		return folded(f, o, k, comm, knames, kn, unames, un);
	if (o->kernel)
		text_frames(f, knames, kn, k->kstack, "Kernel");
	if (o->kernel && o->user && o->delimited && k->kstack >= 0 &&
	    k->ustack >= 0)
		fputs("    --\n", f);
	if (o->user)
		text_frames(f, unames, un, k->ustack, "User");
	fprintf(f, "    %-16s ", "-");
	out_text(f, comm);
	fprintf(f, " (%u)\n", o->show_tgid ? k->tgid : k->pid);
	return 0;
}

static int by_text(const void *a, const void *b)
{
	const struct stackcount_line *x = a, *y = b;

	return strcmp(x->text, y->text);
}

/* bcc's order, smallest first; the same count by text (one order for
 * the same counts). */
static int by_value(const void *a, const void *b)
{
	const struct stackcount_line *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return strcmp(x->text, y->text);
}

int stackcount_merge(struct stackcount_line *l, int n)
{
	int i, m = 0;

	if (n < 1)
		return 0;
	qsort(l, n, sizeof(*l), by_text);
	for (i = 1; i < n; i++) {
		if (!strcmp(l[i].text, l[m].text)) {
			l[m].value += l[i].value;
			free(l[i].text);
			l[i].text = NULL;
		} else
			l[++m] = l[i];
	}
	for (i = m + 1; i < n; i++)
		l[i].text = NULL;
	qsort(l, m + 1, sizeof(*l), by_value);
	return m + 1;
}

void stackcount_put(FILE *f, const struct stackcount_opts *o,
		    const struct stackcount_line *l)
{
	unsigned long long v = l->value;

	if (o->json)
		fprintf(f, "%s,\"%s\":%llu}\n", l->text, o->unit, v);
	else if (o->folded)
		fprintf(f, "%s %llu\n", l->text, v);
	else
		fprintf(f, "%s        %llu\n\n", l->text, v);
}
