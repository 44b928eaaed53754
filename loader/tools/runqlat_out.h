/* SPDX-License-Identifier: MIT */
/* runqlat's histograms before printing: by process, thread or PID
 * namespace (loader/tools/runqlat.c; pure, for the unit tests). */
#ifndef BAREBPF_RUNQLAT_OUT_H
#define BAREBPF_RUNQLAT_OUT_H

#include <stdint.h>
#include "dhist.h"

/* The id of a histogram of runqlat's map (the process, the thread). */
uint32_t runqlat_hist_id(const struct dhist *h);
/*
 * Sort h[0..n-1] by id; with ns_of (--pidnss), first turn each process
 * id into its PID namespace's inode number (ns_of returns 0 where the
 * process is gone: "?") and add up the histograms of one namespace.
 * Returns the count left.
 */
int runqlat_arrange(struct dhist *h, int n,
		    uint32_t (*ns_of)(uint32_t tgid, void *arg), void *arg);
/* "pid = 42" as bcc prints a section's name: its value, "?" for 0 */
void runqlat_id_str(const char *extra, char *out, size_t len);

#endif
