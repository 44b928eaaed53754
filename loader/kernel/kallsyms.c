/* SPDX-License-Identifier: MIT */
/*
 * Kernel symbols from /proc/kallsyms: address -> name for stacks, and "does
 * this function exist" for fallback chains of probe targets.
 *
 * /proc/kallsyms has 100k-300k lines, so it is read once into one buffer
 * which is then cut in place (names point into it), plus two arrays: the
 * symbols sorted by address (binary search in ksyms_find) and an index
 * sorted by name (binary search in ksyms_has). Both sorts are done at load
 * time; with the read, about 100 ms for 120k symbols.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "barebpf.h"
#include "kernel.h"

struct ksym_ent {
	struct bb_ksym sym; /* first: ksyms_find returns &ent->sym */
	uint32_t line;      /* input order, for a stable sort */
	int is_text;        /* t/T: preferred among aliases */
};

struct bb_ksyms {
	char *buf;
	struct ksym_ent *ents; /* by address */
	const char **by_name;  /* the names, sorted */
	size_t n;
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Aliases share an address (_stext, _text, startup_64, ...). Among them a
 * text symbol wins over data, then the first one listed, so that the answer
 * does not depend on qsort's order.
 */
static int cmp_addr(const void *a, const void *b)
{
	const struct ksym_ent *x = a, *y = b;

	if (x->sym.addr != y->sym.addr)
		return x->sym.addr < y->sym.addr ? -1 : 1;
	if (x->is_text != y->is_text)
		return x->is_text ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_name(const void *a, const void *b)
{
	const char *const *x = a, *const *y = b;

	return strcmp(*x, *y);
}

/*
 * Cut buf (NUL-terminated; ownership passes here, freed on failure) into
 * symbols. Returns the
 * number of symbols, or -EACCES if there were symbols but every address was
 * zero: that is how kptr_restrict hides them.
 */
static int parse_owned(struct bb_ksyms **ksp, char *buf)
{
	struct bb_ksyms *ks;
	size_t cap = 0, zeros = 0, i;
	char *p = buf;

	ks = calloc(1, sizeof(*ks));
	if (!ks) {
		free(buf);
		return -ENOMEM;
	}
	ks->buf = buf;

	while (*p) {
		char *line = p, *name, *end;
		uint64_t addr = 0;
		char type;
		int digits = 0, h;

		end = strchr(p, '\n');
		if (end)
			*end = 0;
		p = end ? end + 1 : line + strlen(line);

		while ((h = hexval(*line)) >= 0) {
			addr = addr << 4 | (unsigned)h;
			line++;
			digits++;
		}
		/* "addr type name": anything else is not a symbol line */
		if (!digits || digits > 16 || *line != ' ' || !line[1] ||
		    line[2] != ' ' || !line[3])
			continue;
		type = line[1];
		name = line + 3;
		/* the name ends at "\t[module]" */
		name[strcspn(name, " \t")] = 0;
		if (!*name)
			continue;
		if (!addr) {
			zeros++;
			continue;
		}

		if (ks->n == cap) {
			struct ksym_ent *e;

			cap = cap ? cap * 2 : 4096;
			e = realloc(ks->ents, cap * sizeof(*e));
			if (!e)
				goto err_free;
			ks->ents = e;
		}
		ks->ents[ks->n].sym.addr = addr;
		ks->ents[ks->n].sym.name = name;
		ks->ents[ks->n].line = ks->n;
		ks->ents[ks->n].is_text = type == 't' || type == 'T';
		ks->n++;
	}

	if (!ks->n && zeros) {
		ksyms_free(ks);
		return -EACCES;
	}
	if (ks->n)
		qsort(ks->ents, ks->n, sizeof(*ks->ents), cmp_addr);

	ks->by_name = malloc((ks->n ? ks->n : 1) * sizeof(*ks->by_name));
	if (!ks->by_name)
		goto err_free;
	for (i = 0; i < ks->n; i++)
		ks->by_name[i] = ks->ents[i].sym.name;
	if (ks->n)
		qsort(ks->by_name, ks->n, sizeof(*ks->by_name), cmp_name);

	*ksp = ks;
	return ks->n;

err_free:
	ksyms_free(ks);
	return -ENOMEM;
}

int ksyms_parse(struct bb_ksyms **ksp, const char *text)
{
	char *buf = strdup(text);

	if (!buf)
		return -ENOMEM;
	return parse_owned(ksp, buf);
}

int ksyms_load(struct bb_ksyms **ksp, const char *path, struct bb_err *err)
{
	char *buf = NULL;
	int ret;

	if (!path)
		path = "/proc/kallsyms";
	ret = bb_read_file(path, &buf);
	if (ret < 0)
		return bb_fail(err, ret, "cannot read %s: %s", path,
			       strerror(-ret));
	ret = parse_owned(ksp, buf);
	if (ret == -EACCES)
		return bb_fail(err, ret,
			       "%s: kernel addresses are hidden "
			       "(kernel.kptr_restrict); run as root", path);
	if (ret < 0)
		return bb_fail(err, ret, "%s: %s", path, strerror(-ret));
	if (!ret) {
		ksyms_free(*ksp);
		*ksp = NULL;
		return bb_fail(err, -ENOENT, "%s: no symbols", path);
	}
	return ret;
}

const struct bb_ksym *ksyms_find(const struct bb_ksyms *ks, uint64_t addr,
				 uint64_t *off)
{
	size_t lo = 0, hi, first;

	if (!ks || !ks->n || addr < ks->ents[0].sym.addr)
		return NULL;
	/* invariant: ents[lo].addr <= addr, and ents[hi].addr > addr or hi==n */
	hi = ks->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->ents[mid].sym.addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* the preferred alias is the first of its address (see cmp_addr):
	 * searched too, a walk back over many aliases would be linear */
	first = 0;
	hi = lo;
	while (first < hi) {
		size_t mid = first + (hi - first) / 2;

		if (ks->ents[mid].sym.addr < ks->ents[lo].sym.addr)
			first = mid + 1;
		else
			hi = mid;
	}
	if (off)
		*off = addr - ks->ents[first].sym.addr;
	return &ks->ents[first].sym;
}

int ksyms_has(const struct bb_ksyms *ks, const char *name)
{
	size_t lo = 0, hi;

	if (!ks)
		return 0;
	hi = ks->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(ks->by_name[mid], name);

		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void ksyms_free(struct bb_ksyms *ks)
{
	if (!ks)
		return;
	free(ks->by_name);
	free(ks->ents);
	free(ks->buf);
	free(ks);
}

/* One line "addr type name[\t[module]]": its name is names[i]? */
static void lookup_line(const char *line, size_t len,
			const char *const *names, int n, uint64_t *addrs,
			int *found)
{
	const char *p = line, *name;
	uint64_t addr = 0;
	size_t nlen;
	int h, i;

	while (p < line + len && (h = hexval(*p)) >= 0) {
		addr = addr << 4 | (unsigned)h;
		p++;
	}
	if (p == line || p + 3 >= line + len || p[0] != ' ' || p[2] != ' ')
		return;
	name = p + 3;
	nlen = strcspn(name, " \t\n");
	if (name + nlen > line + len)
		nlen = line + len - name;
	for (i = 0; i < n; i++)
		if (!addrs[i] && strlen(names[i]) == nlen &&
		    !memcmp(names[i], name, nlen) && addr) {
			addrs[i] = addr;
			(*found)++;
		}
}

int ksyms_lookup_text(const char *text, const char *const *names, int n,
		      uint64_t *addrs)
{
	const char *p = text;
	int found = 0, i;

	for (i = 0; i < n; i++)
		addrs[i] = 0;
	while (*p && found < n) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		lookup_line(p, len, names, n, addrs, &found);
		p += len + (end ? 1 : 0);
	}
	return found;
}

int ksyms_lookup(const char *path, const char *const *names, int n,
		 uint64_t *addrs, struct bb_err *err)
{
	char *buf = NULL;
	int ret;

	if (!path)
		path = "/proc/kallsyms";
	ret = bb_read_file(path, &buf);
	if (ret < 0)
		return bb_fail(err, ret, "cannot read %s: %s", path,
			       strerror(-ret));
	ret = ksyms_lookup_text(buf, names, n, addrs);
	free(buf);
	return ret;
}
