/* SPDX-License-Identifier: MIT */
/*
 * The target's system call names by number (sysnames.c), from the table
 * scripts/sysnr.sh makes of its musl's sys/syscall.h: each architecture's
 * own numbers (32-bit ARM's are not x86_64's), compiled into the binary
 * once. funccount finds an event's number in it, syscount a row's name.
 */
#ifndef BAREBPF_SYSNAMES_H
#define BAREBPF_SYSNAMES_H

#include <stddef.h>

/* The table's size: the highest number it knows + 1. */
int sysnames_count(void);
/* The number of call, or -ENOENT. */
int sysnames_number(const char *call);
/* The (first) name of number nr into buf: 0, or -ENOENT where the table
 * has none (buf then ""). */
int sysnames_name(long nr, char *buf, size_t len);
/*
 * Pure, over a table shaped as scripts/sysnr.sh makes it (count entries,
 * each NUL-ended, "" for a number without a call, names of one number
 * apart by a space): the number of call, or -ENOENT; the first name of
 * nr into buf, or -ENOENT.
 */
int sysnames_find(const char *table, int count, const char *call);
int sysnames_at(const char *table, int count, long nr, char *buf,
		size_t len);

#endif
