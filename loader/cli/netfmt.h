/* SPDX-License-Identifier: MIT */
/*
 * The network tools' text (netfmt.c): TCP states by bcc's names, addresses
 * as inet_ntop writes them. Pure.
 */
#ifndef BAREBPF_NETFMT_H
#define BAREBPF_NETFMT_H

#include <stddef.h>

/* "ESTABLISHED" ... "NEW_SYN_RECV" (include/net/tcp_states.h, bcc's
 * names), else the number written into buf. */
const char *tcp_state_name(int state, char *buf, size_t len);
/* addr (4 bytes for family 2, 16 for 10) as text into buf (at least 46
 * bytes); another family: "?". Returns buf. */
const char *net_addr_str(int family, const unsigned char *addr, char *buf,
			 size_t len);
/* 4, 6, or 0 for another family */
int net_ip_version(int family);

#endif
