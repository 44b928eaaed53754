/* SPDX-License-Identifier: MIT */
/* softirqs: what crosses between bpf/softirqs.bpf.c and the tool. */
#ifndef BAREBPF_SOFTIRQS_H
#define BAREBPF_SOFTIRQS_H

/* dist: a vector and a log2 slot (0 for a total) -> running sum (of ns,
 * of calls, or a slot's calls), never cleared: the tool reads deltas */
struct softirqs_key {
	unsigned int vec;
	unsigned int slot;
};
#define SOFTIRQS_MAX_KEYS 1024

enum { SOFTIRQS_TIME, SOFTIRQS_DIST, SOFTIRQS_COUNT };

/* irq:softirq_entry and softirq_exit's vec, 4.9 to 7.x */
#define SOFTIRQS_TP_VEC 8

#endif
