/* SPDX-License-Identifier: MIT */
/* barebpf run's output: maps at exit, samples, bpf_trace_printk relay. */
#ifndef BAREBPF_RUN_OUT_H
#define BAREBPF_RUN_OUT_H

#include "tool.h"

/* Print every map a user would read: text, or one JSON line per entry. */
void run_print_maps(struct bb_obj *obj, int json);
/* One perf event sample of map m (its padding cut when the size every
 * call site sends is known). */
void run_print_sample(const struct bb_map *m, int cpu, const void *data,
		      uint32_t size, int json);

/* The relay of bpf_trace_printk lines from tracefs trace_pipe. */
struct run_printk;
/* Open trace_pipe (non-blocking) of tracefs; NULL after saying why. */
struct run_printk *run_printk_open(struct tool_ctx *t, const char *tracefs);
/* Print every complete line that is there, as text or JSON. */
void run_printk_poll(struct run_printk *r, int json);
int run_printk_fd(const struct run_printk *r);
void run_printk_close(struct run_printk *r);

#endif
