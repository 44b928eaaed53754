/* SPDX-License-Identifier: MIT */
/* funclatency: what crosses between bpf/funclatency.bpf.c and the tool. */
#ifndef BAREBPF_FUNCLATENCY_H
#define BAREBPF_FUNCLATENCY_H

#define FUNCLAT_SLOTS 64
/* stats array: slots 0..63 hold the histogram, then these two */
#define FUNCLAT_TOTAL FUNCLAT_SLOTS
#define FUNCLAT_COUNT (FUNCLAT_SLOTS + 1)
#define FUNCLAT_NSTATS (FUNCLAT_SLOTS + 2)

#endif
