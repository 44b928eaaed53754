/* SPDX-License-Identifier: MIT */
/* funccount: what crosses between bpf/funccount.bpf.c and the tool. */
#ifndef BAREBPF_FUNCCOUNT_H
#define BAREBPF_FUNCCOUNT_H

/*
 * counts: u64 key -> u64 running total. A kprobe's key is the probed
 * instruction's address (regs ip: the function's address, + 1 after an
 * x86 int3 or ftrace call, + 4 more behind an ENDBR; symbolized at print
 * time).
 */
#define FUNCCOUNT_MAX_KEYS 10240

#endif
