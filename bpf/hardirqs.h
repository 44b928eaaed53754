/* SPDX-License-Identifier: MIT */
/* hardirqs: what crosses between bpf/hardirqs.bpf.c and the tool. */
#ifndef BAREBPF_HARDIRQS_H
#define BAREBPF_HARDIRQS_H

#define HARDIRQS_NAME 32 /* bcc's irq_name_t */
#define HARDIRQS_SLOTS 64

/* dist: a handler's name and a log2 slot (0 for a total) -> running sum
 * (of ns, of calls, or a slot's calls), never cleared: the tool reads
 * deltas */
struct hardirqs_key {
	char name[HARDIRQS_NAME];
	unsigned int slot;
	unsigned int none; /* -C: calls that returned IRQ_NONE */
};
#define HARDIRQS_MAX_KEYS 4096

/* what the modes add: a handler's time, a log2 slot of it, one a call */
enum { HARDIRQS_TIME, HARDIRQS_DIST, HARDIRQS_COUNT };

/* irq:irq_handler_entry's name (__data_loc: offset | length << 16) and
 * irq_handler_exit's ret, 4.9 to 7.x: read there straight from ctx
 * (tp_direct) where the format files say so */
#define HARDIRQS_TP_NAME 12
#define HARDIRQS_TP_RET 12

#endif
