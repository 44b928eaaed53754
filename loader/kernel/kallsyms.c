/* SPDX-License-Identifier: MIT */
/*
 * Kernel symbols from /proc/kallsyms: address -> name for stacks, and "does
 * this function exist" for fallback chains of probe targets.
 *
 * /proc/kallsyms has 100k-300k lines, so it is read once into one buffer
 * which is then cut in place (names point into it), plus two arrays: the
 * symbols sorted by address (binary search in ksyms_find) and an index
 * sorted by name (binary search in ksyms_has). Both sorts are done at load
 * time; with the read, about 100 ms and 10 MB for 120k symbols. What
 * names the addresses of some stacks keeps only their symbols
 * (ksyms_load_for): the file streamed through, a few hundred KiB.
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

/* One line, cut in place: 1 a symbol (*name NUL-terminated in it), 0 one
 * hidden (address 0: kptr_restrict), -1 not a symbol line. */
static int parse_line(char *line, uint64_t *addr, char *type, char **name)
{
	int digits = 0, h;

	*addr = 0;
	while ((h = hexval(*line)) >= 0) {
		*addr = *addr << 4 | (unsigned)h;
		line++;
		digits++;
	}
	/* "addr type name": anything else is not a symbol line */
	if (!digits || digits > 16 || *line != ' ' || !line[1] ||
	    line[2] != ' ' || !line[3])
		return -1;
	*type = line[1];
	*name = line + 3;
	/* the name ends at "\t[module]" */
	(*name)[strcspn(*name, " \t")] = 0;
	if (!**name)
		return -1;
	return *addr != 0;
}

static int is_text(char type)
{
	return type == 't' || type == 'T';
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
		uint64_t addr;
		char type;
		int kind;

		end = strchr(p, '\n');
		if (end)
			*end = 0;
		p = end ? end + 1 : line + strlen(line);
		kind = parse_line(line, &addr, &type, &name);
		zeros += kind == 0;
		if (kind <= 0)
			continue;

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
		ks->ents[ks->n].is_text = is_text(type);
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

/* ---- the symbols of some addresses only ---- */

/*
 * What ksyms_find would answer for each of a set of addresses, kept while
 * the lines stream by: addrs sorted and unique; best[i] the best symbol
 * seen in (addrs[i - 1], addrs[i]] (by address, then text, then first
 * listed: cmp_addr's order), made the best at or below addrs[i] at the end
 * by carrying each forward.
 */
struct kfor {
	uint64_t *addrs;
	size_t n;
	struct kfor_best {
		uint64_t addr;
		char *name; /* NULL: none yet */
		int is_text;
	} *best;
	size_t zeros, syms;
};

static int kfor_line(struct kfor *k, char *line)
{
	size_t lo = 0, hi = k->n;
	struct kfor_best *b;
	uint64_t addr;
	char type, *name, *copy;
	int kind = parse_line(line, &addr, &type, &name);

	k->zeros += kind == 0;
	if (kind <= 0)
		return 0;
	k->syms++;
	while (lo < hi) { /* the first address at or above the symbol */
		size_t mid = lo + (hi - lo) / 2;

		if (k->addrs[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == k->n)
		return 0;
	b = &k->best[lo];
	if (b->name && (addr < b->addr ||
			(addr == b->addr && (b->is_text || !is_text(type)))))
		return 0;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	free(b->name);
	b->name = copy;
	b->addr = addr;
	b->is_text = is_text(type);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int kfor_init(struct kfor *k, const uint64_t *addrs, size_t n)
{
	size_t i, m = 0;

	memset(k, 0, sizeof(*k));
	k->addrs = malloc((n ? n : 1) * sizeof(*addrs));
	k->best = calloc(n ? n : 1, sizeof(*k->best));
	if (!k->addrs || !k->best)
		return -ENOMEM;
	if (n)
		memcpy(k->addrs, addrs, n * sizeof(*addrs));
	qsort(k->addrs, n, sizeof(*addrs), cmp_u64);
	for (i = 0; i < n; i++)
		if (!m || k->addrs[i] != k->addrs[m - 1])
			k->addrs[m++] = k->addrs[i];
	k->n = m;
	return 0;
}

static void kfor_free(struct kfor *k)
{
	size_t i;

	for (i = 0; k->best && i < k->n; i++)
		free(k->best[i].name);
	free(k->best);
	free(k->addrs);
}

/* The symbols kept, as a table of their own (names in one buffer). */
static int kfor_table(struct kfor *k, struct bb_ksyms **ksp)
{
	struct bb_ksyms *ks;
	size_t i, len = 1, at = 0;

	if (!k->syms && k->zeros)
		return -EACCES;
	for (i = 1; i < k->n; i++) /* the best at or below each */
		if (!k->best[i].name && k->best[i - 1].name)
			k->best[i] = k->best[i - 1], k->best[i - 1].name = NULL;
	ks = calloc(1, sizeof(*ks));
	for (i = 0; ks && i < k->n; i++)
		len += k->best[i].name ? strlen(k->best[i].name) + 1 : 0;
	if (!ks || !(ks->buf = malloc(len)) ||
	    !(ks->ents = calloc(k->n ? k->n : 1, sizeof(*ks->ents))) ||
	    !(ks->by_name = malloc((k->n ? k->n : 1) * sizeof(char *)))) {
		ksyms_free(ks);
		return -ENOMEM;
	}
	for (i = 0; i < k->n; i++) {
		const struct kfor_best *b = &k->best[i];

		if (!b->name)
			continue;
		ks->ents[ks->n].sym.addr = b->addr;
		ks->ents[ks->n].sym.name = strcpy(ks->buf + at, b->name);
		ks->ents[ks->n].is_text = b->is_text;
		ks->by_name[ks->n] = ks->ents[ks->n].sym.name;
		at += strlen(b->name) + 1;
		ks->n++;
	}
	if (ks->n)
		qsort(ks->by_name, ks->n, sizeof(*ks->by_name), cmp_name);
	*ksp = ks;
	return ks->n;
}

int ksyms_parse_for(struct bb_ksyms **ksp, const char *text,
		    const uint64_t *addrs, size_t n)
{
	char *buf = strdup(text), *p = buf;
	struct kfor k;
	int ret = buf ? kfor_init(&k, addrs, n) : -ENOMEM;

	*ksp = NULL;
	while (ret == 0 && *p) {
		char *end = strchr(p, '\n');

		if (end)
			*end = 0;
		ret = kfor_line(&k, p);
		p = end ? end + 1 : p + strlen(p);
	}
	if (ret == 0)
		ret = kfor_table(&k, ksp);
	if (buf)
		kfor_free(&k);
	free(buf);
	return ret;
}

/* The file's lines through kfor_line, read in chunks (never whole). */
static int kfor_read(struct kfor *k, int fd)
{
	enum { CHUNK = 65536 };
	char *buf = malloc(CHUNK + 1);
	size_t have = 0;
	ssize_t r;
	int ret = buf ? 0 : -ENOMEM, skip = 0;

	while (ret == 0 && (r = read(fd, buf + have, CHUNK - have)) > 0) {
		char *p = buf, *nl;

		have += r;
		while (ret == 0 && (nl = memchr(p, '\n', buf + have - p))) {
			*nl = 0;
			if (!skip)
				ret = kfor_line(k, p);
			skip = 0;
			p = nl + 1;
		}
		have -= p - buf;
		memmove(buf, p, have);
		if (have == CHUNK) /* a line longer than a chunk: not one */
			have = 0, skip = 1;
	}
	if (ret == 0 && r < 0)
		ret = -errno;
	if (ret == 0 && have && !skip) {
		buf[have] = 0;
		ret = kfor_line(k, buf);
	}
	free(buf);
	return ret;
}

int ksyms_load_for(struct bb_ksyms **ksp, const char *path,
		   const uint64_t *addrs, size_t n, struct bb_err *err)
{
	struct kfor k;
	int fd, ret;

	*ksp = NULL;
	if (!path)
		path = "/proc/kallsyms";
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bb_fail(err, -errno, "cannot read %s: %s", path,
			       strerror(errno));
	ret = kfor_init(&k, addrs, n);
	if (ret == 0)
		ret = kfor_read(&k, fd);
	close(fd);
	if (ret == 0)
		ret = kfor_table(&k, ksp);
	kfor_free(&k);
	if (ret == -EACCES)
		return bb_fail(err, ret, "%s: kernel addresses are hidden "
			       "(kernel.kptr_restrict); run as root", path);
	if (ret < 0)
		return bb_fail(err, ret, "%s: %s", path, strerror(-ret));
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
