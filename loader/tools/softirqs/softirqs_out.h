/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_SOFTIRQS_OUT_H
#define BAREBPF_SOFTIRQS_OUT_H

#include <stddef.h>

/* softirqs' name of vector vec ("timer", "net_rx"...; "vec12" beyond the
 * kernel's table), for the unit tests. */
void softirqs_vec_name(unsigned int vec, char *buf, size_t len);

#endif
