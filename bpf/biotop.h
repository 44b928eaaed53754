/* SPDX-License-Identifier: MIT */
/* biotop: what crosses between bpf/biotop.bpf.c and the tool. */
#ifndef BAREBPF_BIOTOP_H
#define BAREBPF_BIOTOP_H

/* counts: one process's I/O of one direction on one disk, as bcc keys it
 * (pid 0 and an empty comm: a request whose submitter was not seen) */
struct biotop_key {
	unsigned int pid;
	unsigned int write; /* 1: a write (rwbs 'W'), else 0 (bcc's R) */
	unsigned int dev;   /* kernel dev_t: major << 20 | minor */
	unsigned int pad;
	char comm[16];
};

struct biotop_val {
	unsigned long long bytes; /* as block_rq_issue reports them */
	unsigned long long us;    /* issue to completion, summed */
	unsigned long long io;
};

/* start: a request issued, until it completes */
struct biotop_start {
	unsigned long long ts;
	unsigned int bytes;
	unsigned int write;
};

/* Where block_rq_issue has nr_sector (24), bytes (28) and rwbs (32: 4.9
 * to 5.x; 34 after 6.x's ioprio) wherever sector_t has 8 bytes; dev and
 * sector as blkwho.h. */
#define BIOTOP_TP_BYTES 28

#endif
