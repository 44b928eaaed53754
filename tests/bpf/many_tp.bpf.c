/* SPDX-License-Identifier: MIT */
/*
 * 65 programs on one tracepoint: one more than the kernel runs on an
 * event (BPF_TRACE_MAX_PROGS), and, under a low `ulimit -n`, more
 * descriptors than the process may open.
 */
#include "bb_helpers.h"

#define P(n)                                                                   \
	SEC("tracepoint/syscalls/sys_enter_getppid")                           \
	int p##n(void *ctx)                                                    \
	{                                                                      \
		return 0;                                                      \
	}
#define P8(n) P(n##0) P(n##1) P(n##2) P(n##3) P(n##4) P(n##5) P(n##6) P(n##7)

P8(1) P8(2) P8(3) P8(4) P8(5) P8(6) P8(7) P8(8)
P(99)

char _license[] SEC("license") = "GPL";
