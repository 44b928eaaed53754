/* SPDX-License-Identifier: MIT */
/* biosnoop: what crosses between bpf/biosnoop.bpf.c and the tool. */
#ifndef BAREBPF_BIOSNOOP_H
#define BAREBPF_BIOSNOOP_H

/* start, bioinfo: one request (or the bio that began it), by disk and
 * sector, as biolatency keys them */
struct biosnoop_rq {
	unsigned int dev; /* kernel dev_t: major << 20 | minor */
	unsigned int pad;
	unsigned long long sector;
};

/* start: when the request was inserted (-Q) and issued; 0 if not seen */
struct biosnoop_stage {
	unsigned long long insert;
	unsigned long long issue;
};

/* bioinfo: who made the request, at block_getrq */
struct biosnoop_who {
	unsigned int pid; /* thread group id, as bcc shows it */
	unsigned int pad;
	char comm[16];
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

#ifndef __bpf__
#include <stdint.h>
#include <stdio.h>
/*
 * The user side's pure parts (loader/cmd/biosnoop.c), for the unit tests.
 * biosnoop_type: bcc's T column from rwbs: "R", "W", and where bcc would
 * say R: "D" discard, "F" flush, "N" none. The print functions write one
 * line with its "\n". start_ts is the ts of the first record: TIME(s)
 * counts from it.
 */
char biosnoop_type(const char *rwbs);
void biosnoop_print_header(FILE *f, int queued);
void biosnoop_print(FILE *f, const struct biosnoop_event *e,
		    uint64_t start_ts, const char *disk, int queued);
void biosnoop_print_json(FILE *f, const struct biosnoop_event *e,
			 uint64_t start_ts, const char *disk, int queued);
#endif

#endif
