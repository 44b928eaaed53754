/* SPDX-License-Identifier: MIT */
/* fsslower and fsdist: what crosses between bpf/fsslower.bpf.c and them. */
#ifndef BAREBPF_FSSLOWER_H
#define BAREBPF_FSSLOWER_H

/* the operations, as bcc's ext4slower's T column: R W O S */
#define FSS_READ 0
#define FSS_WRITE 1
#define FSS_OPEN 2
#define FSS_FSYNC 3
#define FSS_NOPS 4

#define FSS_SLOTS 32   /* log2 slots of each operation's histogram */
#define FSS_NAME 64    /* bytes of a file name (bcc's: 32) */
#define FSS_WIN 192    /* bytes of a struct file or kiocb the discovery sees */

/* start: an operation in flight, by thread id */
struct fss_start {
	unsigned long long ts;
	unsigned long long fp;     /* struct file * */
	unsigned long long pos;    /* kiocb->ki_pos at entry (read, write) */
	unsigned int op, pad;
};

/* the perf event array record: one operation slower than min_ns */
struct fss_event {
	unsigned long long ts;     /* the return, bpf_ktime_get_ns() */
	unsigned long long delta;  /* ns */
	long long size;            /* the return value (bytes, or -errno) */
	unsigned long long offset; /* bytes */
	unsigned int pid, tid, op, pad;
	char comm[16];
	char name[FSS_NAME];       /* file->f_path.dentry->d_name.name */
};

/* the discovery (discover = 1): cfg[0] is what the host asks for, disc[0]
 * what an open by disc_pid saw, disc[1] what its read saw */
struct fss_disc_cfg {
	unsigned long long seq;
	unsigned int off_dentry, off_name; /* candidates */
};
struct fss_disc {
	unsigned long long seq;
	unsigned long long ptr;    /* the struct file * (open), kiocb * (read) */
	unsigned char win[FSS_WIN]; /* the struct's first bytes */
	char name[FSS_NAME];       /* through the candidates (open) */
};

/* stats: a per-CPU array */
#define FSS_EMITTED 0   /* records handed to bpf_perf_event_output */
#define FSS_UNTRACKED 1 /* entries not tracked: the start map was full */
#define FSS_NSTATS 2

#endif
