/* SPDX-License-Identifier: MIT */
/* sockoff: what crosses between bpf/sockoff.bpf.c and
 * loader/mods/sockoff.c, the discovery of struct sock's fields. */
#ifndef BAREBPF_SOCKOFF_H
#define BAREBPF_SOCKOFF_H

/* snap: the first SOCKOFF_WINDOW bytes of the last sock inet_csk_accept
 * returned to the discovering process, and how many it returned (the
 * whole of struct sock_common is in the window on every kernel) */
#define SOCKOFF_WINDOW 160
struct sockoff_snap {
	unsigned long long seq;
	unsigned char bytes[SOCKOFF_WINDOW];
};

#endif
