/* SPDX-License-Identifier: MIT */
/* biosnoop: what crosses between bpf/biosnoop.bpf.c and the tool. */
#ifndef BAREBPF_BIOSNOOP_H
#define BAREBPF_BIOSNOOP_H

/* start (and blkwho.h's who): one request (or the bio that began it), by disk and
 * sector, as biolatency keys them */
struct biosnoop_rq {
	unsigned int dev; /* kernel dev_t: major << 20 | minor */
	unsigned int pad;
	unsigned long long sector;
};

/* Where block_getrq, block_bio_frontmerge and block_rq_* have dev (4
 * bytes), sector (8) and nr_sector (4) wherever sector_t has 8 bytes, as
 * in biolatency.h: read there from ctx if the format files say so. */
#define BIOSNOOP_TP_DEV 8
#define BIOSNOOP_TP_SECTOR 16
#define BIOSNOOP_TP_NR_SECTOR 24

/* start: when the request was inserted (-Q) and issued; 0 if not seen */
struct biosnoop_stage {
	unsigned long long insert;
	unsigned long long issue;
};

/* the perf event array record: one completed request */
#define BIOSNOOP_F_INSERTED 1 /* insert seen: qdelta is valid */
#define BIOSNOOP_F_WHO 2      /* submitter known: pid and comm are valid */
struct biosnoop_event {
	unsigned long long ts;     /* completion, bpf_ktime_get_ns() */
	unsigned long long delta;  /* issue -> completion, ns */
	unsigned long long qdelta; /* insert -> issue, ns */
	unsigned long long sector;
	unsigned int dev;
	unsigned int nr_sector;    /* as block_rq_complete reports it */
	unsigned int pid;
	unsigned int flags;        /* BIOSNOOP_F_* */
	char rwbs[8];
	char comm[16];
};

/* stats: a per-CPU array */
#define BIOSNOOP_EMITTED 0  /* records handed to bpf_perf_event_output */
#define BIOSNOOP_UNTRACKED 1 /* issues not tracked: the start map was full */
#define BIOSNOOP_NSTATS 2

#endif
