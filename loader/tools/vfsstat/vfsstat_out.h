/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_VFSSTAT_OUT_H
#define BAREBPF_VFSSTAT_OUT_H

#include <stdint.h>
#include <stdio.h>
#include "../../../bpf/vfsstat.h"

/*
 * vfsstat's line (loader/tools/vfsstat/vfsstat.c), for the unit tests: d[k] is
 * what counter k gained in the interval of `interval` seconds, hms the
 * clock ("HH:MM:SS").
 */
void vfsstat_print_header(FILE *f);
void vfsstat_print(FILE *f, const uint64_t *d, double interval,
		   const char *hms, int json);

#endif
