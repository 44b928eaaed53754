/* SPDX-License-Identifier: MIT */
/* vfsstat: what crosses between bpf/vfsstat.bpf.c and the tool. */
#ifndef BAREBPF_VFSSTAT_H
#define BAREBPF_VFSSTAT_H

/* slots of the per-CPU array "stats", in bcc's column order */
enum { VFS_READ, VFS_WRITE, VFS_FSYNC, VFS_OPEN, VFS_CREATE, VFS_NSTATS };

#endif
