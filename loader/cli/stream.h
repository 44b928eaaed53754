/* SPDX-License-Identifier: MIT */
/*
 * The end of a streaming tool (stream.c): biosnoop, slowbio, opensnoop,
 * execsnoop print one line per record from a perf ring and account at
 * exit for every record, the same way.
 */
#ifndef BAREBPF_STREAM_H
#define BAREBPF_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include "tool.h"

struct tool_stream {
	const char *what;      /* "opens": "N opens printed", the warnings */
	uint32_t emitted_idx;  /* the object's "stats" counter of records sent */
	int untracked_idx;     /* its counter of what the program could not
				* track, or -1: none */
	const char *untracked; /* why, after "N <what> were not ..." */
	/* counted by the tool's record callback */
	uint64_t received, printed, short_records;
	/* counted by tool_stream_finish */
	uint64_t emitted, lost, untracked_n;
};

/*
 * A fixed-size record from the ring into rec (len bytes): 0, or -1 if it
 * is shorter (counted, as received ones are).
 */
int tool_stream_take(struct tool_stream *s, void *rec, size_t len,
		     const void *data, uint32_t size);
/*
 * Detach, drain the ring (drain as for tool_detach_drain), flush stdout,
 * and count what was lost and untracked.
 */
void tool_stream_finish(struct tool_ctx *t, struct tool_stream *s,
			struct bb_perfbuf *pb,
			void (*drain)(void *ctx, struct bb_perfbuf *pb),
			void *ctx);
/*
 * "barebpf <tool>: N <what> printed, L lost<more>" on stderr, then a
 * warning for each kind of loss: lost, then `warn` (a tool's own, if not
 * NULL), untracked, records too short.
 */
void tool_stream_report(struct tool_ctx *t, const struct tool_stream *s,
			const char *more, const char *warn);
/*
 * The whole run of the simplest streaming tools (killsnoop, opensnoop,
 * drsnoop): deliver pb's records until the duration (0: none) ends or a
 * signal comes, then finish and report as above, with no more and no warn.
 */
void tool_stream_run(struct tool_ctx *t, struct tool_stream *s,
		     struct bb_perfbuf *pb, double duration);

#endif
