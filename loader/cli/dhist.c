/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "dhist.h"


static int cmp_dhist(const void *a, const void *b)
{
	const struct dhist *x = a, *y = b;
	int c = strcmp(x->disk, y->disk);

	return c ? c : strcmp(x->extra, y->extra);
}

/* A key in a fixed 16-byte slot (zero-padded): compared whole. */
struct dhist_kv {
	unsigned char key[DHIST_KEY_MAX];
	uint64_t val;
};

static int cmp_kv(const void *a, const void *b)
{
	return memcmp(a, b, DHIST_KEY_MAX);
}

void dhist_prev_free(struct dhist_prev *p)
{
	free(p->kv);
	p->kv = NULL;
	p->n = 0;
}

/*
 * Read, never delete: deleting each key after reading it loses whatever a
 * CPU adds between the read and the delete (and the BPF side's slot made
 * anew). The map holds running totals; what is printed is each total
 * minus the one read the time before (prev).
 */
int dhist_collect(struct dhist_prev *prev, int fd, size_t key_size,
		  struct dhist **out, int *nout)
{
	unsigned char key[DHIST_KEY_MAX], next[DHIST_KEY_MAX];
	struct dhist_kv *kv = NULL, *nkv, *old;
	struct dhist *h = NULL;
	int nkeys = 0, n = 0, i, j;
	size_t xlen = key_size - 8;
	void *pk = NULL;

	if (key_size < 8 || key_size > DHIST_KEY_MAX)
		return -EINVAL;
	while (bpf_map_get_next_key(fd, pk, next) == 0) {
		nkv = realloc(kv, (nkeys + 1) * sizeof(*kv));
		if (!nkv)
			goto oom;
		kv = nkv;
		memset(&kv[nkeys], 0, sizeof(*kv));
		memcpy(kv[nkeys].key, next, key_size);
		memcpy(key, next, key_size);
		pk = key;
		if (bpf_map_lookup_elem(fd, next, &kv[nkeys].val) == 0)
			nkeys++;
	}
	if (nkeys)
		qsort(kv, nkeys, sizeof(*kv), cmp_kv);
	for (i = 0; i < nkeys; i++) {
		const unsigned char *k = kv[i].key;
		uint64_t v = kv[i].val;
		uint32_t dev, slot;

		old = prev->n ? bsearch(&kv[i], prev->kv, prev->n,
					sizeof(*kv), cmp_kv) : NULL;
		if (old && old->val <= v)
			v -= old->val;
		memcpy(&dev, k, 4);
		memcpy(&slot, k + 4, 4);
		for (j = 0; j < n; j++)
			if (h[j].dev == dev && !memcmp(h[j].extra, k + 8, xlen))
				break;
		if (j == n) {
			struct dhist *nh = realloc(h, (n + 1) * sizeof(*h));

			if (!nh)
				goto oom;
			h = nh;
			memset(&h[n], 0, sizeof(*h));
			h[n].dev = dev;
			memcpy(h[n].extra, k + 8, xlen);
			if (dev)
				disk_name(dev, h[n].disk, sizeof(h[n].disk));
			else
				snprintf(h[n].disk, sizeof(h[n].disk), "?");
			n++;
		}
		if (slot < DHIST_SLOTS)
			h[j].slots[slot] += v;
	}
	free(prev->kv);
	prev->kv = kv;
	prev->n = nkeys;
	/* as after a clear: a histogram that gained nothing is not shown */
	for (i = j = 0; i < n; i++) {
		int k, any = 0;

		for (k = 0; k < DHIST_SLOTS && !any; k++)
			any = h[i].slots[k] != 0;
		if (any)
			h[j++] = h[i];
	}
	n = j;
	if (n)
		qsort(h, n, sizeof(*h), cmp_dhist);
	*out = h;
	*nout = n;
	return 0;
oom:
	free(kv);
	free(h);
	return -ENOMEM;
}

void dhist_print(const struct dhist_fmt *f, const struct dhist *h, int n)
{
	char extra[128];
	int i;

	if (f->json) {
		printf("{\"time\":\"%s\",\"unit\":\"%s\",\"hists\":[",
		       now_hms(), f->unit);
		for (i = 0; i < n; i++) {
			printf("%s{", i ? "," : "");
			if (f->per_disk) {
				printf("\"disk\":");
				json_str(stdout, h[i].disk);
				printf(",");
			}
			if (f->extra_str) {
				f->extra_str(h[i].extra, extra, sizeof(extra));
				printf("\"%s\":", f->extra_name);
				json_str(stdout, extra);
				printf(",");
			}
			printf("\"hist\":");
			hist_json_log2(stdout, h[i].slots, DHIST_SLOTS, f->unit);
			printf("}");
		}
		printf("]}\n");
		fflush(stdout);
		return;
	}
	if (f->timestamp)
		printf("%-8s\n", now_hms());
	for (i = 0; i < n; i++) {
		if (f->per_disk)
			printf("\ndisk = '%s'\n", h[i].disk);
		if (f->extra_str) {
			f->extra_str(h[i].extra, extra, sizeof(extra));
			printf("\n%s = %s\n", f->extra_name, extra);
		}
		hist_print_log2(stdout, h[i].slots, DHIST_SLOTS, f->unit);
	}
	fflush(stdout);
}

int dhist_loop(struct tool_ctx *t, int fd, size_t key_size,
	       const struct dhist_fmt *f, double interval, double duration,
	       unsigned long count)
{
	struct dhist_prev prev = { 0 };
	struct tool_timer tm;
	struct dhist *h;
	int n, tick;

	tool_timer_init(&tm, interval, duration);
	for (;;) {
		tick = tool_wait(&tm, NULL);
		if (tick == TOOL_TICK_NONE)
			continue;
		if (dhist_collect(&prev, fd, key_size, &h, &n) < 0) {
			dhist_prev_free(&prev);
			return tool_fail(t, -ENOMEM, "out of memory");
		}
		/* bcc's biolatency prints an empty line before each
		 * histogram, an interval's or the last one */
		if (!f->json)
			putchar('\n');
		dhist_print(f, h, n);
		free(h);
		if (tick == TOOL_TICK_LAST || (count && --count == 0)) {
			dhist_prev_free(&prev);
			return 0;
		}
	}
}

/* ---- histograms by a 32-bit id (runqlat, cpudist) ---- */

uint32_t dhist_id(const struct dhist *h)
{
	uint32_t id;

	memcpy(&id, h->extra, sizeof(id));
	return id;
}

void dhist_id_str(const char *extra, char *out, size_t len)
{
	uint32_t id;

	memcpy(&id, extra, sizeof(id));
	if (id)
		snprintf(out, len, "%u", id);
	else
		snprintf(out, len, "?");
}

static int cmp_id(const void *a, const void *b)
{
	uint32_t x = dhist_id(a), y = dhist_id(b);

	return x < y ? -1 : x > y;
}

int dhist_by_id(struct dhist *h, int n,
		    uint32_t (*ns_of)(uint32_t tgid, void *arg), void *arg)
{
	int i, j, k;

	if (ns_of)
		for (i = 0; i < n; i++) {
			uint32_t ns = ns_of(dhist_id(&h[i]), arg);

			memcpy(h[i].extra, &ns, sizeof(ns));
		}
	if (n > 1)
		qsort(h, n, sizeof(*h), cmp_id);
	for (i = j = 0; i < n; i++) {
		if (j && dhist_id(&h[j - 1]) == dhist_id(&h[i])) {
			for (k = 0; k < DHIST_SLOTS; k++)
				h[j - 1].slots[k] += h[i].slots[k];
			continue;
		}
		h[j++] = h[i];
	}
	return j;
}

int dhist_loop_by_id(struct tool_ctx *t, int fd, const struct dhist_fmt *f,
		     double interval, double duration, unsigned long count,
		     uint32_t (*map)(uint32_t id, void *arg))
{
	struct dhist_prev prev = { 0 };
	struct tool_timer tm;
	struct dhist *h;
	int n, tick, ret = 0;

	tool_timer_init(&tm, interval, duration);
	for (;;) {
		tick = tool_wait(&tm, NULL);
		if (tick == TOOL_TICK_NONE)
			continue;
		if (dhist_collect(&prev, fd, DHIST_ID_KEY, &h,
				  &n) < 0) {
			ret = tool_fail(t, -ENOMEM, "out of memory");
			break;
		}
		n = dhist_by_id(h, n, map, NULL);
		/* bcc prints an empty line before each output */
		if (!f->json)
			putchar('\n');
		dhist_print(f, h, n);
		free(h);
		if (tick == TOOL_TICK_LAST || (count && --count == 0))
			break;
	}
	dhist_prev_free(&prev);
	return ret;
}

