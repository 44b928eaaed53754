/* SPDX-License-Identifier: MIT */
/*
 * BPF objects, the public accessors (obj.h): programs, maps,
 * constants and const volatile settings, the kernel's capabilities, the
 * verifier log and notes of the load; obj_close.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "obj_internal.h"

int obj_str_copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(dst, src, n + 1);
	return 0;
}

const char *obj_sym_label(const struct elf_file *ef, uint32_t i)
{
	const struct elf_sym *sym = &ef->syms[i];

	if (sym->name[0])
		return sym->name;
	if (sym->type == STT_SECTION && sym->shndx < ef->nsecs)
		return ef->secs[sym->shndx].name;
	return "(unnamed)";
}

static int cmp_key_const(const void *key, const void *elem)
{
	const struct bb_const *const *c = elem;

	return strcmp(key, (*c)->name);
}

static int find_const(struct bb_obj *obj, const char *name)
{
	const struct bb_const **c;

	if (!obj->nconsts)
		return -1;
	c = bsearch(name, obj->const_by_name, obj->nconsts,
		    sizeof(*obj->const_by_name), cmp_key_const);
	return c ? (int)(*c - obj->consts) : -1;
}

int obj_set_const(struct bb_obj *obj, const char *name, uint64_t value)
{
	int i = find_const(obj, name);

	if (i >= 0) {
		obj->consts[i].value = value;
		obj->consts[i].set = 1;
		return 0;
	}
	/* `const volatile` settings of libbpf-style objects */
	for (i = 0; i < obj->nvars; i++) {
		struct obj_var *v = &obj->vars[i];
		unsigned char *p = obj->data[v->data].image + v->off;
		uint32_t k;

		if (strcmp(v->name, name))
			continue;
		if (!v->size || v->size > 8 ||
		    (v->size < 8 && value >> (8 * v->size)))
			return -ERANGE;
		for (k = 0; k < v->size; k++)
			p[k] = value >> (8 * k);
		return 0;
	}
	return -ENOENT;
}

int obj_consts(struct bb_obj *obj, const struct bb_const **consts)
{
	*consts = obj->consts;
	return obj->nconsts;
}

void obj_set_kcaps(struct bb_obj *obj, const struct bb_kcaps *c)
{
	obj->caps = *c;
	obj->caps.probed = 1;
}

const struct bb_kcaps *obj_kcaps(const struct bb_obj *obj)
{
	return &obj->caps;
}

const char *obj_verifier_log(const struct bb_obj *obj)
{
	return obj && obj->log ? obj->log : "";
}

int obj_verifier_log_truncated(const struct bb_obj *obj)
{
	return obj && obj->log && obj->log_truncated;
}

int obj_nprogs(const struct bb_obj *obj)
{
	return obj->nprogs;
}

struct bb_prog *obj_prog_at(struct bb_obj *obj, int i)
{
	return i >= 0 && i < obj->nprogs ? &obj->progs[i].p : NULL;
}

struct bb_prog *obj_prog(struct bb_obj *obj, const char *name)
{
	int i;

	for (i = 0; i < obj->nprogs; i++)
		if (!strcmp(obj->progs[i].p.name, name))
			return &obj->progs[i].p;
	for (i = 0; i < obj->nprogs; i++)
		if (!strcmp(obj->progs[i].p.section, name))
			return &obj->progs[i].p;
	return NULL;
}

int obj_nmaps(const struct bb_obj *obj)
{
	return obj->nmaps;
}

struct bb_map *obj_map_at(struct bb_obj *obj, int i)
{
	return i >= 0 && i < obj->nmaps ? &obj->maps[i] : NULL;
}

struct bb_map *obj_map(struct bb_obj *obj, const char *name)
{
	int i;

	for (i = 0; i < obj->nmaps; i++)
		if (!strcmp(obj->maps[i].name, name))
			return &obj->maps[i];
	return NULL;
}

const char *obj_license(const struct bb_obj *obj)
{
	return obj->license;
}

int obj_uses_printk(const struct bb_obj *obj)
{
	return obj->printk;
}

const char *obj_maps_layout(const struct bb_obj *obj)
{
	return obj->maps_layout;
}

const char *obj_notes(const struct bb_obj *obj)
{
	return obj->notes ? obj->notes : "";
}

const struct bb_btf *obj_btf(const struct bb_obj *obj)
{
	return obj->has_btf ? &obj->btf : NULL;
}

void obj_close(struct bb_obj *obj)
{
	int i;

	if (!obj)
		return;
	obj_close_fds(obj);
	for (i = 0; obj->progs && i < obj->nprogs; i++)
		free(obj->progs[i].p.insns);
	for (i = 0; obj->code && i < obj->ncode; i++) {
		free(obj->code[i].insns);
		free(obj->code[i].relocs);
	}
	for (i = 0; obj->data && i < obj->ndata; i++)
		free(obj->data[i].image);
	for (i = 0; i < obj->ncopies; i++)
		free(obj->copies[i]);
	free(obj->copies);
	free(obj->code);
	free(obj->funcs);
	free(obj->progs);
	free(obj->maps);
	free(obj->data);
	free(obj->vars);
	free(obj->externs);
	free(obj->consts);
	free(obj->const_prog);
	free(obj->const_by_name);
	free(obj->inits);
	free(obj->log);
	free(obj->notes);
	free(obj->name);
	btf_close(&obj->btf);
	elf_close(&obj->elf);
	free(obj);
}
