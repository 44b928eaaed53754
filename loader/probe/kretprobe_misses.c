/* SPDX-License-Identifier: MIT */
/*
 * How many returns the kretprobes of a session missed: from kprobe_profile
 * for probes of kprobe_events, from the programs' run counts for probes of
 * the perf kprobe PMU, which kprobe_profile does not list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe_internal.h"
#include "kernel.h"

int kprobe_profile_line(const char *line, char *event, size_t len,
			unsigned long *hits, unsigned long *misses)
{
	const char *p = line, *start;
	char *end;
	size_t n;

	while (*p == ' ' || *p == '\t')
		p++;
	start = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n')
		p++;
	n = p - start;
	if (n == 0 || n >= len)
		return -EINVAL;
	memcpy(event, start, n);
	event[n] = 0;
	*hits = strtoul(p, &end, 10);
	if (end == p)
		return -EINVAL;
	p = end;
	*misses = strtoul(p, &end, 10);
	if (end == p)
		return -EINVAL;
	return 0;
}

/*
 * Quirk: until probes_profile_seq_show() was fixed in 2021 (and in the
 * stable trees that took the fix), the misses column of a kretprobe counts
 * only misses of its entry kprobe, not the returns lost because all
 * maxactive instances were in use. On 4.15 that column stays 0. So where a
 * kprobe and a kretprobe of this session share a function, the returns
 * missing against the entries count too (the larger of the two per
 * function). Calls still in flight when this is read count as missing: a
 * lost return and a call that has not returned yet look the same here.
 */
struct profile_row {
	const struct bb_link *link;
	unsigned long hits, misses;
};

static int profile_rows(struct bb_session *s, struct profile_row *rows, int n)
{
	char *text, *line, *eol;
	int ret, i;

	ret = tracefs_read(s->tracefs, "kprobe_profile", &text);
	if (ret < 0)
		return ret;
	for (line = text; line && *line; line = eol) {
		unsigned long hits, misses;
		char event[160];

		eol = strchr(line, '\n');
		if (eol)
			*eol++ = 0;
		if (kprobe_profile_line(line, event, sizeof(event), &hits,
					&misses) < 0)
			continue;
		for (i = 0; i < n; i++) {
			const char *ours = strchr(rows[i].link->event, '/');

			/* Shown as "event", or "group/event" on some kernels. */
			if (ours && (!strcmp(event, ours + 1) ||
				     !strcmp(event, rows[i].link->event))) {
				rows[i].hits = hits;
				rows[i].misses = misses;
			}
		}
	}
	free(text);
	return 0;
}

/* Run count of a program (bpf_prog_info.run_cnt, counted while
 * BPF_ENABLE_STATS is held), or -errno. */
#define PROG_INFO_RUN_CNT 200 /* offsetof(struct bpf_prog_info, run_cnt) */
static long long prog_run_cnt(int prog_fd)
{
	uint64_t v;
	int ret = bpf_prog_info_u64(prog_fd, PROG_INFO_RUN_CNT, &v);

	return ret < 0 ? ret : (long long)v;
}

/*
 * Does every PMU link of program prog_fd (of kind) have a PMU link of the
 * other kind on its function? Then its run count pairs with theirs.
 */
static int pmu_prog_paired(const struct bb_session *s, int prog_fd,
			   enum bb_prog_kind kind)
{
	enum bb_prog_kind other = kind == BB_PROG_KPROBE ? BB_PROG_KRETPROBE
							 : BB_PROG_KPROBE;
	const struct bb_link *l, *o;
	int n = 0;

	for (l = s->links; l; l = l->next) {
		if (l->prog_fd != prog_fd || l->kind != kind)
			continue;
		o = session_link(s, other, l->target);
		if (!l->pmu || !o || !o->pmu)
			return 0;
		n++;
	}
	return n > 0;
}

/* Has an earlier link of the list the same program? */
static int prog_seen(const struct bb_session *s, const struct bb_link *upto)
{
	const struct bb_link *l;

	for (l = s->links; l != upto; l = l->next)
		if (l->prog_fd == upto->prog_fd)
			return 1;
	return 0;
}

/*
 * PMU kretprobes are not in kprobe_profile: their misses are the returns
 * missing against the entries, from the run counts of the entry and return
 * programs paired on the same functions (calls in flight count as missing,
 * as in the kprobe_profile case).
 */
static long pmu_kretprobe_misses(struct bb_session *s)
{
	long long entries = 0, returns = 0, n;
	struct bb_link *l;

	if (s->stats_fd < 0)
		return 0;
	for (l = s->links; l; l = l->next) {
		if (!l->pmu || prog_seen(s, l) ||
		    !pmu_prog_paired(s, l->prog_fd, l->kind))
			continue;
		n = prog_run_cnt(l->prog_fd);
		if (n < 0)
			return n;
		if (l->kind == BB_PROG_KPROBE)
			entries += n;
		else
			returns += n;
	}
	return entries > returns ? (long)(entries - returns) : 0;
}

long session_kretprobe_misses(struct bb_session *s)
{
	struct profile_row *rows;
	struct bb_link *l;
	long sum = pmu_kretprobe_misses(s);
	int n = 0, i, j, ret;

	if (sum < 0)
		return sum;
	for (l = s->links; l; l = l->next)
		n += l->event[0] != 0;
	if (!n)
		return sum;
	rows = calloc(n, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (l = s->links, i = 0; l; l = l->next)
		if (l->event[0])
			rows[i++].link = l;
	ret = profile_rows(s, rows, n);
	for (i = 0; ret == 0 && i < n; i++) {
		unsigned long missed = rows[i].misses;

		if (rows[i].link->kind != BB_PROG_KRETPROBE)
			continue;
		for (j = 0; j < n; j++)
			if (rows[j].link->kind == BB_PROG_KPROBE &&
			    !strcmp(rows[j].link->target, rows[i].link->target) &&
			    rows[j].hits > rows[i].hits &&
			    rows[j].hits - rows[i].hits > missed)
				missed = rows[j].hits - rows[i].hits;
		sum += missed;
	}
	free(rows);
	return ret < 0 ? ret : sum;
}
