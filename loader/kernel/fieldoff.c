/* SPDX-License-Identifier: MIT */
/*
 * The field-offset layer (fieldoff.h): a path "struct.member..." looked up
 * in BTF with the reader of BPF objects (obj/btf.c: validated records,
 * bounded walks), or handed to the discovery a caller registered.
 *
 * Cost on this machine's 6.18 (5.5 MB of BTF): reading and indexing the
 * file once 3.6 ms, each lookup a scan of the types for the struct's
 * name, under 1 ms (tests/integration/test_fieldoff.c prints both). So
 * BTF answers are not cached; a discovery is the caller's to cache.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fieldoff.h"

/* members of anonymous structs inside anonymous structs: a real kernel
 * nests 3 or 4 deep (sock_common); more is a cycle or a hostile file */
#define NEST_MAX 16
#define PATH_MAX_PARTS 16

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int is_record(const struct btf_t *t)
{
	return t->kind == BTF_KIND_STRUCT || t->kind == BTF_KIND_UNION;
}

/* The first STRUCT or UNION named name with members (not a FWD). */
static int find_record(const struct bb_btf *b, const char *name,
		       size_t len, struct btf_t *t)
{
	uint32_t id;

	for (id = 1; id <= b->ntypes; id++)
		if (btf_type(b, id, t) == 0 && is_record(t) && t->vlen &&
		    !strncmp(t->name, name, len) && !t->name[len])
			return 0;
	return -ENOENT;
}

/*
 * Member name (len bytes) of record t, looked for in t itself first, then
 * inside its anonymous struct and union members, depth first as a C
 * compiler resolves it. *bitoff accumulates the offset in bits.
 */
static int find_member(const struct bb_btf *b, const struct btf_t *t,
		       const char *name, size_t len, int depth,
		       struct btf_member *out, uint64_t *bitoff)
{
	struct btf_member m;
	struct btf_t inner;
	uint16_t i;

	if (depth > NEST_MAX)
		return -ELOOP;
	for (i = 0; i < t->vlen; i++) {
		btf_member_at(b, t, i, &m);
		if (m.name[0] && !strncmp(m.name, name, len) && !m.name[len]) {
			*out = m;
			*bitoff += m.offset;
			return 0;
		}
	}
	for (i = 0; i < t->vlen; i++) {
		uint64_t sub = *bitoff;

		btf_member_at(b, t, i, &m);
		if (m.name[0] || btf_skip_mods(b, m.type, &inner) < 0 ||
		    !is_record(&inner))
			continue;
		sub += m.offset;
		if (find_member(b, &inner, name, len, depth + 1, out,
				&sub) == 0) {
			*bitoff = sub;
			return 0;
		}
	}
	return -ENOENT;
}

static int is_bitfield(const struct bb_btf *b, const struct btf_member *m,
		       uint64_t bitoff)
{
	struct btf_t t;
	uint32_t bits, off, size;

	if (m->bits || bitoff % 8)
		return 1;
	if (btf_skip_mods(b, m->type, &t) < 0 || t.kind != BTF_KIND_INT)
		return 0;
	btf_int_bits(&t, &bits, &off);
	return off || btf_size(b, m->type, &size) < 0 || bits != size * 8;
}

/* Split "a.b.c" into parts; -EINVAL for an empty part or too many. */
static int split_path(const char *path, const char **part, size_t *len)
{
	int n = 0;
	const char *p = path;

	for (;;) {
		const char *dot = strchr(p, '.');
		size_t l = dot ? (size_t)(dot - p) : strlen(p);

		if (!l || n == PATH_MAX_PARTS)
			return -EINVAL;
		part[n] = p;
		len[n++] = l;
		if (!dot)
			return n;
		p = dot + 1;
	}
}

/* After the struct, one step: member i of the path inside record *t. */
static int path_step(const struct bb_btf *b, const char *path,
		     struct btf_t *t, const char *name, size_t len, int last,
		     struct btf_member *m, uint64_t *bitoff,
		     struct bb_err *err)
{
	struct btf_t next;
	int ret = find_member(b, t, name, len, 0, m, bitoff);

	if (ret < 0)
		return bb_fail(err, ret, "field %s: %s has no member '%.*s' "
			       "in %s", path, t->name[0] ? t->name :
			       "(anonymous)", (int)len, name, b->objname);
	if (last)
		return 0;
	if (btf_skip_mods(b, m->type, &next) < 0 || !is_record(&next))
		return bb_fail(err, -EINVAL, "field %s: '%.*s' is not a struct "
			       "or union (a pointer is followed by asking "
			       "for the struct it points to)", path, (int)len,
			       name);
	*t = next;
	return 0;
}

int fieldoff_btf(const struct bb_btf *b, const char *path,
		 struct bb_field *out, struct bb_err *err)
{
	const char *part[PATH_MAX_PARTS];
	size_t len[PATH_MAX_PARTS];
	struct btf_member m;
	struct btf_t t;
	uint64_t bitoff = 0;
	uint32_t size;
	int n = split_path(path, part, len), i, ret;

	memset(out, 0, sizeof(*out));
	if (n < 2)
		return bb_fail(err, -EINVAL, "field '%s': not struct.member "
			       "(e.g. rq.nr_running)", path);
	if (find_record(b, part[0], len[0], &t) < 0)
		return bb_fail(err, -ENOENT, "field %s: no struct or union "
			       "'%.*s' in %s", path, (int)len[0], part[0],
			       b->objname);
	for (i = 1; i < n; i++) {
		ret = path_step(b, path, &t, part[i], len[i], i == n - 1, &m,
				&bitoff, err);
		if (ret < 0)
			return ret;
	}
	if (is_bitfield(b, &m, bitoff))
		return bb_fail(err, -EINVAL, "field %s is a bitfield in %s: "
			       "not readable as bytes", path, b->objname);
	if (bitoff / 8 > UINT32_MAX || btf_size(b, m.type, &size) < 0)
		return bb_fail(err, -EINVAL, "field %s: its type has no size "
			       "in %s", path, b->objname);
	out->offset = bitoff / 8;
	out->size = size;
	out->is_signed = btf_skip_mods(b, m.type, &t) == 0 &&
			 t.kind == BTF_KIND_INT &&
			 (btf_int_encoding(&t) & BTF_INT_SIGNED);
	return 0;
}

uint32_t fieldoff_btf_long_size(const struct bb_btf *b)
{
	struct btf_t t;
	uint32_t id;

	for (id = 1; id <= b->ntypes; id++)
		if (btf_type(b, id, &t) == 0 && t.kind == BTF_KIND_INT &&
		    (!strcmp(t.name, "long int") ||
		     !strcmp(t.name, "long unsigned int")) &&
		    (t.size_type == 4 || t.size_type == 8))
			return t.size_type;
	return 8;
}

void fieldoff_init(struct bb_fieldoff *f, const char *btf_file)
{
	const char *e = getenv("BAREBPF_FIELDS");

	memset(f, 0, sizeof(*f));
	f->btf_file = btf_file;
	f->cache_file = BB_FIELDOFF_CACHE;
	if (e && !strcmp(e, "discover"))
		f->discover_only = 1;
	else if (e && !strncmp(e, "discover:", 9))
		f->discover_list = e + 9;
}

/* Is path to be discovered whatever the BTF says (BAREBPF_FIELDS)? */
static int forced(const struct bb_fieldoff *f, const char *path)
{
	const char *p = f->discover_list;
	size_t n = strlen(path);

	if (f->discover_only)
		return 1;
	while (p && *p) {
		size_t l = strcspn(p, ",");

		if (l == n && !strncmp(p, path, n))
			return 1;
		p += l + (p[l] == ',');
	}
	return 0;
}

int fieldoff_register(struct bb_fieldoff *f, const char *path,
		      bb_field_discover_fn fn, void *ctx)
{
	if (f->ndisc == BB_FIELDOFF_DISC_MAX)
		return -ENOSPC;
	f->disc[f->ndisc].path = path;
	f->disc[f->ndisc].fn = fn;
	f->disc[f->ndisc].ctx = ctx;
	f->ndisc++;
	return 0;
}

static int open_btf(struct bb_fieldoff *f)
{
	const char *path = f->btf_file ? f->btf_file : BB_KERNEL_BTF;
	double t0 = mono_ms();
	int ret;

	if (f->btf_state)
		return f->btf_state < 0 ? f->btf_state : 0;
	ret = bb_read_file(path, &f->btf_buf);
	if (ret < 0) {
		f->btf_state = bb_fail(&f->btf_err, ret, "cannot read %s: %s",
				       path, strerror(-ret));
		return f->btf_state;
	}
	ret = btf_open(&f->btf, f->btf_buf, ret, path, &f->btf_err);
	if (ret < 0) {
		free(f->btf_buf);
		f->btf_buf = NULL;
		f->btf_state = ret;
		if (f->btf_file) /* the error names .BTF: say what a file is */
			bb_fail(&f->btf_err, ret, "%s is not raw BTF (as "
				"/sys/kernel/btf/vmlinux or BTFhub's unpacked "
				"files; from an ELF vmlinux: objcopy -O "
				"binary --only-section=.BTF): %s", path,
				f->btf_err.msg);
		return ret;
	}
	f->btf.ptr_size = fieldoff_btf_long_size(&f->btf);
	f->btf_ms = mono_ms() - t0;
	f->btf_state = 1;
	return 0;
}

int fieldoff_have_btf(struct bb_fieldoff *f)
{
	if (f->discover_only)
		return 0;
	return open_btf(f) == 0;
}

static int has_discovery(const struct bb_fieldoff *f, const char *path)
{
	int i;

	for (i = 0; i < f->ndisc; i++)
		if (!strcmp(f->disc[i].path, path))
			return 1;
	return 0;
}

static int discover(struct bb_fieldoff *f, const char *path,
		    struct bb_field *out, const char *why, struct bb_err *err)
{
	int i, ret;

	for (i = 0; i < f->ndisc; i++) {
		if (strcmp(f->disc[i].path, path))
			continue;
		memset(out, 0, sizeof(*out));
		out->src = BB_FIELD_DISCOVERED;
		/* forced: measured again, to be checked, and not kept */
		if (!forced(f, path) &&
		    fieldcache_get(f->cache_file, path, out) == 0)
			return 0;
		ret = f->disc[i].fn(f->disc[i].ctx, path, out, err);
		if (ret < 0)
			return ret;
		if (!out->how[0])
			snprintf(out->how, sizeof(out->how), "discovered");
		if (!forced(f, path))
			fieldcache_put(f->cache_file, path, out);
		return 0;
	}
	return bb_fail(err, -EOPNOTSUPP, "field %s: %s, and barebpf cannot "
		       "discover it on a running kernel; give a BTF file of "
		       "this kernel with --btf FILE (BTFhub has them for many "
		       "distribution kernels)", path, why);
}

int fieldoff_find(struct bb_fieldoff *f, const char *path,
		  struct bb_field *out, struct bb_err *err)
{
	struct bb_err berr = { "" };
	char why[sizeof(berr.msg) + 16];
	int ret;

	if (forced(f, path))
		return discover(f, path, out, "BAREBPF_FIELDS asks to "
				"discover it", err);
	ret = open_btf(f);
	if (ret < 0 && f->btf_file) /* the user's file must be readable */
		return bb_fail(err, ret, "field %s: %s", path, f->btf_err.msg);
	if (ret == 0) {
		ret = fieldoff_btf(&f->btf, path, out, &berr);
		if (ret == 0) {
			out->src = f->btf_file ? BB_FIELD_FILE_BTF :
						 BB_FIELD_KERNEL_BTF;
			snprintf(out->how, sizeof(out->how), "BTF %s",
				 f->btf.objname);
			return 0;
		}
		/* a bitfield, not a struct: final; missing: the kernel may
		 * have renamed it, where a discovery finds it all the same */
		if (ret != -ENOENT || !has_discovery(f, path))
			return bb_fail(err, ret, "%s", berr.msg);
		snprintf(why, sizeof(why), "%s", berr.msg);
	} else {
		snprintf(why, sizeof(why), "no BTF (%.400s)", f->btf_err.msg);
	}
	return discover(f, path, out, why, err);
}

void fieldoff_close(struct bb_fieldoff *f)
{
	btf_close(&f->btf);
	free(f->btf_buf);
	f->btf_buf = NULL;
	f->btf_state = 0;
}
