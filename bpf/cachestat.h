/* SPDX-License-Identifier: MIT */
/* cachestat: what crosses between bpf/cachestat.bpf.c and the tool. */
#ifndef BAREBPF_CACHESTAT_H
#define BAREBPF_CACHESTAT_H

/* stats: calls counted per CPU, as bcc's cachestat names them */
#define CACHESTAT_APCL 0 /* a page added to the page cache */
#define CACHESTAT_MPA 1  /* a page marked accessed */
#define CACHESTAT_MBD 2  /* a buffer marked dirty */
#define CACHESTAT_APD 3  /* a page accounted dirtied */
#define CACHESTAT_NSTATS 4

#endif
