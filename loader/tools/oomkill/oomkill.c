/* SPDX-License-Identifier: MIT */
/* barebpf oomkill: one line per OOM kill, bcc's text. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tool.h"
#include "stream.h"
#include "oomkill_out.h"
#include "mods.h"

static const struct tool_usage help = { NULL, "oomkill" };

struct oomkill_run {
	int json;
	struct tool_stream s;
};

void oomkill_print(FILE *f, const struct oomkill_event *e, const char *hms,
		   const char *vcomm, long long pages, const char *loadavg,
		   int json)
{
	char tcomm[17];

	memcpy(tcomm, e->tcomm, 16);
	tcomm[16] = 0;
	if (json) {
		fprintf(f, "{\"time\":\"%s\",\"tpid\":%u,\"tcomm\":", hms,
			e->tpid);
		json_str(f, tcomm);
		fprintf(f, ",\"vpid\":%u,\"vcomm\":", e->vpid);
		if (vcomm)
			json_str(f, vcomm);
		else
			fputs("null", f);
		if (pages >= 0)
			fprintf(f, ",\"pages\":%lld", pages);
		else
			fputs(",\"pages\":null", f);
		fputs(",\"loadavg\":", f);
		json_str(f, loadavg);
		fputs("}\n", f);
		return;
	}
	fprintf(f, "%s Triggered by PID %u (\"", hms, e->tpid);
	out_text(f, tcomm);
	fprintf(f, "\"), OOM kill of PID %u (\"", e->vpid);
	out_text(f, vcomm ? vcomm : "?");
	if (pages >= 0)
		fprintf(f, "\"), %lld pages, loadavg: ", pages);
	else
		fputs("\"), ? pages, loadavg: ", f);
	out_text(f, loadavg);
	fputc('\n', f);
}

/* The first line of path into buf, its newline cut; NULL if unreadable. */
static const char *read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	char *ok;

	if (!f)
		return NULL;
	ok = fgets(buf, (int)len, f);
	fclose(f);
	if (!ok)
		return NULL;
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct oomkill_run *r = ctx;
	struct oomkill_event e;
	char path[64], comm[64], statm[256], load[256];
	const char *vcomm = NULL;
	long long pages = -1;
	long psize = sysconf(_SC_PAGESIZE);

	(void)cpu;
	if (tool_stream_take(&r->s, &e, sizeof(e), data, size) < 0)
		return;
	if (e.has_comm) {
		memcpy(comm, e.vcomm, 16);
		comm[16] = 0;
		vcomm = comm;
	} else {
		snprintf(path, sizeof(path), "/proc/%u/comm", e.vpid);
		vcomm = read_line(path, comm, sizeof(comm));
	}
	if (e.has_rss && psize >= 1024) {
		pages = (long long)(e.total_vm_kb / (unsigned long)(psize / 1024));
	} else {
		snprintf(path, sizeof(path), "/proc/%u/statm", e.vpid);
		if (read_line(path, statm, sizeof(statm)))
			pages = strtoll(statm, NULL, 10);
	}
	if (!read_line("/proc/loadavg", load, sizeof(load)))
		snprintf(load, sizeof(load), "?");
	oomkill_print(stdout, &e, now_hms(), vcomm, pages, load, r->json);
	r->s.printed++;
	tool_output_failed();
}

static int parse_args(struct tool_ctx *t, int *json, double *duration,
		      int argc, char **argv)
{
	static const struct option longopts[] = { TOOL_LONGOPTS, { 0 } };
	const struct tool_optv v = { .usage = &help, .json = json,
				     .duration = duration };
	int c = tool_getopt(t, argc, argv, "hvj", longopts, &v);

	if (c > 0)
		return tool_see_help(t);
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

static int oomkill_main(int argc, char **argv)
{
	struct oomkill_run r = { .s = { "kills", OOMKILL_EMITTED, -1, NULL } };
	struct bb_perfbuf *pb = NULL;
	struct tool_ctx t;
	struct tool_timer tm;
	double duration = 0;
	int ret = 1;

	tool_init(&t, "oomkill");
	if (parse_args(&t, &r.json, &duration, argc, argv))
		return 1;
	tool_signals();
	if (oomkill_start(&t, on_event, &r, &pb) < 0)
		goto out;
	tool_tracing(&t, r.json ? stderr : stdout,
		     "Tracing OOM kills... Ctrl-C to stop.\n");
	tool_timer_init(&tm, 0, duration);
	while (tool_wait(&tm, pb) != TOOL_TICK_LAST)
		;
	tool_stream_finish(&t, &r.s, pb, NULL, NULL);
	if (t.verbose || r.s.lost)
		tool_stream_report(&t, &r.s, NULL, NULL);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	return ret;
}

const struct tool tool_oomkill = {
	"oomkill", oomkill_main,
	"one line per OOM kill: who triggered it, the victim (tracepoint)"
};
