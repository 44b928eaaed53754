/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "dhist.h"

#define DHIST_KEY_MAX 16

static int cmp_dhist(const void *a, const void *b)
{
	const struct dhist *x = a, *y = b;
	int c = strcmp(x->disk, y->disk);

	return c ? c : strcmp(x->extra, y->extra);
}

int dhist_collect(int fd, size_t key_size, struct dhist **out, int *nout)
{
	unsigned char key[DHIST_KEY_MAX], next[DHIST_KEY_MAX], *keys = NULL;
	struct dhist *h = NULL;
	int nkeys = 0, n = 0, i, j;
	size_t xlen = key_size - 8;
	void *prev = NULL;

	if (key_size < 8 || key_size > DHIST_KEY_MAX)
		return -EINVAL;
	/* all keys first: deleting while iterating would restart the walk */
	while (bpf_map_get_next_key(fd, prev, next) == 0) {
		unsigned char *nk = realloc(keys, (nkeys + 1) * key_size);

		if (!nk)
			goto oom;
		keys = nk;
		memcpy(keys + nkeys++ * key_size, next, key_size);
		memcpy(key, next, key_size);
		prev = key;
	}
	for (i = 0; i < nkeys; i++) {
		const unsigned char *k = keys + i * key_size;
		uint32_t dev, slot;
		uint64_t v = 0;

		if (bpf_map_lookup_elem(fd, k, &v) < 0)
			continue;
		bpf_map_delete_elem(fd, k);
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
	free(keys);
	if (n)
		qsort(h, n, sizeof(*h), cmp_dhist);
	*out = h;
	*nout = n;
	return 0;
oom:
	free(keys);
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
	struct tool_timer tm;
	struct dhist *h;
	int n, tick;

	tool_timer_init(&tm, interval, duration);
	for (;;) {
		tick = tool_wait(&tm, NULL);
		if (tick == TOOL_TICK_NONE)
			continue;
		if (dhist_collect(fd, key_size, &h, &n) < 0)
			return tool_error(t, "out of memory");
		if (!f->json && !interval)
			putchar('\n');
		dhist_print(f, h, n);
		free(h);
		if (tick == TOOL_TICK_LAST || (count && --count == 0))
			return 0;
	}
}
