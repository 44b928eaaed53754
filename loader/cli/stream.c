/* SPDX-License-Identifier: MIT */
/*
 * A streaming tool's end: stop the programs first, then drain the rings,
 * so that every record counted as sent has either arrived or is lost (a
 * lost record shows in perfbuf_lost only once a later one lands on that
 * ring; the count the program keeps does not wait for that).
 */
#include <stdio.h>
#include <string.h>
#include "stream.h"

int tool_stream_take(struct tool_stream *s, void *rec, size_t len,
		     const void *data, uint32_t size)
{
	/* the kernel pads u32 size + record to 8 bytes: size may be larger */
	if (size < len) {
		s->short_records++;
		return -1;
	}
	memcpy(rec, data, len);
	s->received++;
	return 0;
}

void tool_stream_finish(struct tool_ctx *t, struct tool_stream *s,
			struct bb_perfbuf *pb,
			void (*drain)(void *ctx, struct bb_perfbuf *pb),
			void *ctx)
{
	struct bb_map *m;

	tool_detach_drain(t, pb, drain, ctx);
	fflush(stdout);
	s->lost = tool_ring_lost(t, pb, "stats", s->emitted_idx, s->received,
				 &s->emitted);
	s->untracked_n = 0;
	m = obj_map(t->obj, "stats");
	if (m && s->untracked_idx >= 0)
		bpf_map_sum_percpu_u64(m->fd, s->untracked_idx,
				       &s->untracked_n);
}

void tool_stream_report(struct tool_ctx *t, const struct tool_stream *s,
			const char *more, const char *warn)
{
	fprintf(stderr, "barebpf %s: %llu %s printed, %llu lost%s\n", t->name,
		(unsigned long long)s->printed, s->what,
		(unsigned long long)s->lost, more ? more : "");
	if (s->lost)
		tool_error(t, "warning: %llu %s were not printed: the reader "
			   "fell behind and the kernel dropped their records",
			   (unsigned long long)s->lost, s->what);
	if (warn)
		tool_error(t, "warning: %s", warn);
	if (s->untracked_n)
		tool_error(t, "warning: %llu %s were not %s",
			   (unsigned long long)s->untracked_n, s->what,
			   s->untracked);
	if (s->short_records)
		tool_error(t, "warning: %llu records were too short (a "
			   "mismatched build?)",
			   (unsigned long long)s->short_records);
}

void tool_stream_run(struct tool_ctx *t, struct tool_stream *s,
		     struct bb_perfbuf *pb, double duration)
{
	struct tool_timer tm;

	tool_timer_init(&tm, 0, duration);
	while (tool_wait(&tm, pb) != TOOL_TICK_LAST)
		;
	tool_stream_finish(t, s, pb, NULL, NULL);
	tool_stream_report(t, s, NULL, NULL);
}
