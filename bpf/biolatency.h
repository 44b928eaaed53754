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
	char rwbs[8]; /* zeroed unless -F; with per_op, rwbs[0] = BIOLAT_OP_* */
};

/* per_op (the exporter): the operation of the request, from rwbs */
#define BIOLAT_OP_READ 'R'
#define BIOLAT_OP_WRITE 'W'
#define BIOLAT_OP_DISCARD 'D'
#define BIOLAT_OP_FLUSH 'F'
#define BIOLAT_OP_OTHER 'N'

/* sums (keep_sum): nanoseconds of latency in all, by the hist key with
 * slot 0, for a histogram's _sum */

/* Where block_rq_insert, _issue and _complete have dev (dev_t, 4 bytes) and
 * sector (sector_t, 8) on 4.9 to 7.x wherever sector_t has 8 bytes: read
 * there straight from ctx (load-time constant tp_direct) if the format
 * files say so. */
#define BIOLAT_TP_DEV 8
#define BIOLAT_TP_SECTOR 16

/* The tracepoint fields the program reads are load-time constants
 * tpoff_<event>_<field>, set to their offsets in events/block/<event>/format
 * by loader/mods/biolatency.c. */

#endif
