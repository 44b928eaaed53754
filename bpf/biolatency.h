/* SPDX-License-Identifier: MIT */
/* biolatency: what crosses between bpf/biolatency.bpf.c and the tool. */
#ifndef BAREBPF_BIOLATENCY_H
#define BAREBPF_BIOLATENCY_H

#define BIOLAT_SLOTS 64

/* start: one in-flight request, by device and sector */
struct biolat_rq {
	unsigned int dev;  /* kernel dev_t: major << 20 | minor */
	unsigned int pad;
	unsigned long long sector;
};

/* hist: one log2 slot of one disk (dev 0 without -D) and flags (-F) */
struct biolat_key {
	unsigned int dev;
	unsigned int slot;
	char rwbs[8]; /* zeroed unless -F */
};

#endif
