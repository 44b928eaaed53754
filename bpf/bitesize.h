/* SPDX-License-Identifier: MIT */
/* bitesize: what crosses between bpf/bitesize.bpf.c and the tool. */
#ifndef BAREBPF_BITESIZE_H
#define BAREBPF_BITESIZE_H

#define BITESIZE_SLOTS 64

/* hist: one log2 slot (of the request's size in KiB) of one command */
struct bitesize_key {
	char comm[16]; /* as bpf_get_current_comm pads it: NULs after */
	unsigned int slot;
	unsigned int pad;
};

/* Where block_rq_issue has bytes (4 bytes) on 4.9 to 7.x wherever
 * sector_t has 8 bytes (dev and sector: blkwho.h): read there from ctx if
 * the format file says so (load-time constant tp_direct). */
#define BITESIZE_TP_BYTES 28

#endif
