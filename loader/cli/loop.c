/* SPDX-License-Identifier: MIT */
/* The output loop: intervals, a duration, signals (tool.h). */
#include <stdint.h>
#include <time.h>
#include "tool.h"

void tool_sleep(double secs)
{
	struct timespec ts;

	if (bb_stop || secs <= 0)
		return;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL); /* EINTR on a signal: the caller checks bb_stop */
}

void tool_timer_init(struct tool_timer *tm, double interval, double duration)
{
	double now = bb_now_mono();

	tm->interval = interval;
	tm->next = interval > 0 ? now + interval : 0;
	tm->end = duration > 0 ? now + duration : 0;
}

int tool_wait(struct tool_timer *tm, struct bb_perfbuf *pb)
{
	double now = bb_now_mono(), wake = now + 1;

	/* wake at least once a second so that a signal is never missed for
	 * long, even if it lands between the check and the sleep */
	if (tm->next && tm->next < wake)
		wake = tm->next;
	if (tm->end && tm->end < wake)
		wake = tm->end;
	if (!bb_stop) {
		if (pb)
			perfbuf_poll(pb, (int)((wake - now) * 1000) + 1);
		else
			tool_sleep(wake - now);
	}
	tool_flush();
	now = bb_now_mono();
	if (bb_stop || (tm->end && now >= tm->end))
		return TOOL_TICK_LAST;
	if (tm->next && now >= tm->next) {
		tm->next = tool_next_tick(tm->next, tm->interval, now);
		return TOOL_TICK_INTERVAL;
	}
	return TOOL_TICK_NONE;
}

void tool_every(double interval, double duration, unsigned long count,
		int flags, void (*fn)(void *ctx), void *ctx)
{
	struct tool_timer tm;
	unsigned long done = 0;
	int tick;

	tool_timer_init(&tm, interval, duration);
	for (;;) {
		tick = tool_wait(&tm, NULL);
		if (tick == TOOL_TICK_NONE)
			continue;
		if (tick == TOOL_TICK_LAST && !(flags & TOOL_EVERY_PARTIAL))
			return;
		fn(ctx);
		if (tick == TOOL_TICK_LAST || (count && ++done >= count))
			return;
	}
}

double tool_next_tick(double next, double interval, double now)
{
	double k;

	if (!(interval > 0))
		return now + 1;
	k = next <= now ? (now - next) / interval + 1 : 1;
	if (k > 1e15)
		k = 1e15;
	next += (double)(uint64_t)k * interval;
	/* a step too small to change the sum: the smallest interval a tool
	 * takes, from now on */
	if (next > now)
		return next;
	return now + (interval > TOOL_SECONDS_MIN ? interval : TOOL_SECONDS_MIN);
}
