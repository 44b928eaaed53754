/* SPDX-License-Identifier: MIT */
/* freeze: what crosses between bpf/freeze.bpf.c and the tool. */
#ifndef BAREBPF_FREEZE_H
#define BAREBPF_FREEZE_H

#define FREEZE_NAME_LEN 32 /* DISK_NAME_LEN */
#define FREEZE_COMM_LEN 16 /* TASK_COMM_LEN */
/* a queue/ attribute's name (atomic_write_unit_max_bytes: 27); a longer
 * one is cut */
#define FREEZE_ATTR_LEN 32

/* fstate: one queue frozen now, by request_queue pointer */
struct freeze_state {
	unsigned long long start_ns;   /* outermost freeze start */
	unsigned long long drain_start; /* 0 until the drain began */
	unsigned long long drain_ns;   /* 0 until the drain ended */
	unsigned int depth;            /* our count of nested freezes */
	unsigned int nested;           /* freezes started while frozen */
	unsigned int pid, tid;         /* of the task that froze it */
	int stackid;                   /* its kernel stack, or -errno */
	unsigned int pad;
	char comm[FREEZE_COMM_LEN];
	char disk[FREEZE_NAME_LEN];    /* from the sysfs write, or "" */
	char attr[FREEZE_ATTR_LEN];    /* the queue/ file written, or "" */
	unsigned long long entry_ret;  /* PT_REGS_ENTRY_RET at the freeze */
};

/* cand: the freeze this task has just started; it replaces a stale state
 * of the queue if the kernel shows it outermost (freeze_confirm) */
struct freeze_cand {
	unsigned long long q;
	unsigned int created; /* this freeze made the queue's state */
	unsigned int pad;
	struct freeze_state s;
};

/* stats: per-CPU counters */
#define FREEZE_STAT_EMITTED 0 /* records sent to the ring */
#define FREEZE_STAT_HEALED 1  /* a queue held frozen was frozen anew */
#define FREEZE_STAT_UNSEEN 2  /* unfreeze of a freeze not seen starting */
#define FREEZE_NSTATS 3

/* events: one record per outermost freeze/unfreeze pair */
struct freeze_event {
	unsigned long long q;          /* struct request_queue * */
	unsigned long long start_ns;
	unsigned long long frozen_ns;  /* start to final unfreeze */
	unsigned long long drain_ns;   /* 0: no drain seen */
	unsigned int pid, tid;
	int stackid;
	unsigned int nested;
	char comm[FREEZE_COMM_LEN];
	char disk[FREEZE_NAME_LEN];    /* "" unless a sysfs write froze it */
	char attr[FREEZE_ATTR_LEN];    /* its queue/ file, e.g. "scheduler" */
	unsigned long long entry_ret;  /* PT_REGS_ENTRY_RET at the freeze */
};

/* task_sysfs: the disk whose queue/ sysfs file the task is writing or
 * reading now, and that file's name ("" in q_name), by thread id */
struct freeze_sysfs {
	char disk[FREEZE_NAME_LEN];
	char attr[FREEZE_ATTR_LEN];
} __attribute__((aligned(8))); /* copied as words, not bytes */

/* qdev (with --correlate): a queue's disk as correlation learned it */
#define FREEZE_QDEV_AMBIGUOUS 0xffffffffu /* seen with two disks */

/* pending: the last freeze/unfreeze this task counted, so that the call
 * a wrapper makes to the function it wraps is not counted twice */
struct freeze_pending {
	unsigned long long q;
	unsigned long long ts;
	unsigned long long sp; /* stack pointer at the call */
	unsigned int role;     /* FREEZE_ROLE_* */
	unsigned int pad;
	unsigned long long ips[3]; /* the functions of the chain (regs ip) */
};
#define FREEZE_ROLE_START 1
#define FREEZE_ROLE_UNFREEZE 2

#endif
