/* SPDX-License-Identifier: MIT */
#ifndef BAREBPF_TCPDROP_OUT_H
#define BAREBPF_TCPDROP_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "kernel.h"
#include "../../../bpf/tcpdrop.h"

/*
 * tcpdrop's output (tcpdrop_out.c), for the unit tests: bcc's line
 * "TIME PID IP SADDR:SPORT > DADDR:DPORT STATE (FLAGS)", with reasons
 * (skb:kfree_skb) a REASON after it, then the kernel stack, one frame a
 * line ("\tfunc+0x1a"), then an empty line; or one JSON object a drop,
 * the stack an array. reason: the name, NULL where the kernel gave none;
 * ips[0..n-1] the stack (n < 0: -errno, none read).
 */
void tcpdrop_print_header(FILE *f, int reasons);
void tcpdrop_print(FILE *f, const struct tcpdrop_event *e, const char *hms,
		   const char *reason, const struct bb_ksyms *ks,
		   const uint64_t *ips, int n, int json);
/* bcc's tcp.flags2str: "SYN|ACK"; "" for none */
const char *tcpdrop_flags_str(unsigned flags, char *buf, size_t len);

#endif
