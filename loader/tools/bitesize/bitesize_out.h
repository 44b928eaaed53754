/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_BITESIZE_OUT_H
#define BAREBPF_BITESIZE_OUT_H

#include <stdint.h>
#include <stdio.h>
#include "../../../bpf/bitesize.h"

/*
 * bitesize's pure parts (loader/tools/bitesize/bitesize.c), for the unit tests.
 *
 * The map holds running totals (nothing is deleted, so nothing a CPU adds
 * between a read and a delete is lost): an interval shows what each key
 * gained since the read before.
 */
struct bitesize_kv {
	struct bitesize_key key;
	uint64_t val;
};
struct bitesize_hist {
	char comm[17];
	uint64_t slots[BITESIZE_SLOTS];
};
/* Sort kv[0..n-1] by key: one command's slots together, commands in byte
 * order. */
void bitesize_sort(struct bitesize_kv *kv, int n);
/*
 * The histograms of now (sorted) less prev (sorted; NULL, 0 before the
 * first read), one per command that gained anything, in now's order, in
 * *out (freed by the caller). Returns how many, or -ENOMEM.
 */
int bitesize_hists(const struct bitesize_kv *now, int n,
		   const struct bitesize_kv *prev, int nprev,
		   struct bitesize_hist **out);
/* One output: bcc's text ("Process Name = dd" then "Kbytes : count
 * distribution" lines; hms, if not NULL, first) or one JSON line. */
void bitesize_print(FILE *f, const struct bitesize_hist *h, int n,
		    const char *hms, int json);

#endif
