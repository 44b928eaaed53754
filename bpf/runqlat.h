/* SPDX-License-Identifier: MIT */
/* runqlat: what crosses between bpf/runqlat.bpf.c and the tool. */
#ifndef BAREBPF_RUNQLAT_H
#define BAREBPF_RUNQLAT_H

#define RUNQLAT_SLOTS 64
/* threads that left a CPU or were woken, not yet back on a CPU */
#define RUNQLAT_STARTS 16384
#define RUNQLAT_KEYS 16384

/*
 * hist: one log2 slot of one histogram; laid out as loader/cli/dhist.h
 * reads it (dev 0, then the slot; id is its "extra" part): id is the
 * process (-P, --pidnss: the user side groups processes by namespace),
 * the thread (-L), or 0.
 */
struct runqlat_key {
	unsigned int dev; /* always 0 */
	unsigned int slot;
	unsigned int id;
	unsigned int pad;
};

/* by: what a histogram's id is */
#define RUNQLAT_BY_NONE 0
#define RUNQLAT_BY_TGID 1
#define RUNQLAT_BY_TID 2

#endif
