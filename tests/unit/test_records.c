/* SPDX-License-Identifier: MIT */
/*
 * The record printing of the streaming tools, replayed: the formatting
 * each tool had before its records were described once (outrec.h), kept
 * here verbatim as old_*, and the tool's formatting now must print the
 * same bytes, text and JSON, for a few thousand records of ordinary
 * values under every option that changes a line. Then what ordinary
 * records never hold: controls and invalid UTF-8, escaped.
 */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "output.h"
#include "outrec.h"
#include "biosnoop_out.h"
#include "execsnoop_out.h"
#include "freeze_out.h"
#include "opensnoop_out.h"
#include "slowbio_out.h"
#include "vfsstat_out.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

#define SAME(old_call, new_call)                                               \
	do {                                                                   \
		char *a_ = NULL, *b_ = NULL;                                   \
		RENDER(a_, old_call);                                          \
		RENDER(b_, new_call);                                          \
		ck_assert_str_eq(b_, a_);                                      \
		free(a_);                                                      \
		free(b_);                                                      \
	} while (0)

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* An ordinary name: printable ASCII without controls, at most max bytes
 * (all of buf's size when max is 0 or more), NUL-filled after it. */
static void rnd_name(char *buf, size_t size, int full)
{
	static const char cs[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789/._-:+@ ";
	size_t n = full ? size : rnd() % size, i;

	memset(buf, 0, size);
	for (i = 0; i < n; i++)
		buf[i] = cs[rnd() % (sizeof(cs) - 1)];
}

/* ---- opensnoop, as on_event printed it ---- */

struct old_open_opts {
	int timestamp, print_uid, tid, extended, json;
};

static void old_opensnoop_header(FILE *f, const struct old_open_opts *o)
{
	if (o->timestamp)
		fprintf(f, "%-14s", "TIME(s)");
	if (o->print_uid)
		fprintf(f, "%-6s", "UID");
	fprintf(f, "%-6s %-16s %4s %3s ", o->tid ? "TID" : "PID", "COMM",
		"FD", "ERR");
	if (o->extended)
		fprintf(f, "%-9s", "FLAGS");
	fprintf(f, "PATH\n");
}

static void old_opensnoop(FILE *f, const struct opensnoop_event *ep,
			  uint64_t first_ts, const struct old_open_opts *o)
{
	struct opensnoop_event e = *ep;
	char comm[sizeof(e.comm) + 1];
	int fd, err;

	memcpy(comm, e.comm, sizeof(e.comm));
	comm[sizeof(e.comm)] = 0;
	e.fname[sizeof(e.fname) - 1] = 0;
	fd = e.ret >= 0 ? e.ret : -1;
	err = e.ret >= 0 ? 0 : -e.ret;
	if (o->json) {
		fprintf(f, "{\"ts\":%.9f,\"pid\":%u,\"tid\":%u,\"uid\":%u,"
		       "\"comm\":", (e.ts - first_ts) / 1e9, e.pid, e.tid,
		       e.uid);
		json_str(f, comm);
		fprintf(f, ",\"fd\":%d,\"err\":%d,\"flags\":%llu,\"path\":", fd,
		       err, e.flags);
		json_str(f, e.fname);
		fprintf(f, "}\n");
	} else {
		if (o->timestamp)
			fprintf(f, "%-14.9f", (e.ts - first_ts) / 1e9);
		if (o->print_uid)
			fprintf(f, "%-6u", e.uid);
		fprintf(f, "%-6u %-16s %4d %3d ", o->tid ? e.tid : e.pid, comm, fd,
		       err);
		if (o->extended)
			fprintf(f, "%08llo ", e.flags);
		fprintf(f, "%s\n", e.fname);
	}
}

static unsigned open_mask(const struct old_open_opts *o)
{
	return (o->timestamp ? OUT_BIT(OPENSNOOP_COL_TIME) : 0) |
	       (o->print_uid ? OUT_BIT(OPENSNOOP_COL_UID) : 0) |
	       OUT_BIT(o->tid ? OPENSNOOP_COL_TID : OPENSNOOP_COL_PID) |
	       (o->extended ? OUT_BIT(OPENSNOOP_COL_FLAGS) : 0);
}

static void rnd_open(struct opensnoop_event *e)
{
	memset(e, 0, sizeof(*e));
	e->ts = 1000000000ULL + rnd() % 100000000000ULL;
	e->flags = rnd() % 4 ? rnd() % 0x400000 : rnd();
	e->pid = rnd() % 5 ? rnd() % 100000 : (uint32_t)rnd();
	e->tid = e->pid + rnd() % 3;
	e->uid = rnd() % 3 ? 0 : (uint32_t)rnd() % 70000;
	e->ret = rnd() % 3 ? (int)(rnd() % 1100) : -(int)(rnd() % 140);
	rnd_name(e->comm, sizeof(e->comm), rnd() % 4 == 0);
	rnd_name(e->fname, sizeof(e->fname) - 1, rnd() % 16 == 0);
}

START_TEST(test_opensnoop_replay)
{
	struct opensnoop_event e;
	int i, k;

	for (k = 0; k < 32; k++) {
		struct old_open_opts o = { k & 1, !!(k & 2), !!(k & 4),
					   !!(k & 8), !!(k & 16) };

		if (!o.json)
			SAME(old_opensnoop_header(f, &o),
			     opensnoop_print_header(f, open_mask(&o)));
		for (i = 0; i < 200; i++) {
			uint64_t first = 1000000000ULL - rnd() % 1000;

			rnd_open(&e);
			if (i == 0)
				first = e.ts;
			SAME(old_opensnoop(f, &e, first, &o),
			     opensnoop_print(f, &e, first, open_mask(&o), o.json));
		}
	}
}
END_TEST

START_TEST(test_opensnoop_recorded)
{
	struct opensnoop_event e = { 0 };
	char *out = NULL;

	e.ts = 2500000000ULL;
	e.flags = 02101;
	e.pid = 181;
	e.tid = 182;
	e.uid = 1000;
	e.ret = 3;
	memcpy(e.comm, "cat", 3);
	strcpy(e.fname, "/etc/hosts");
	RENDER(out, opensnoop_print(f, &e, 1000000000ULL,
				    OUT_BIT(OPENSNOOP_COL_TIME) |
				    OUT_BIT(OPENSNOOP_COL_UID) |
				    OUT_BIT(OPENSNOOP_COL_PID) |
				    OUT_BIT(OPENSNOOP_COL_FLAGS), 0));
	ck_assert_str_eq(out, "1.500000000   1000  181    cat                 3   0 "
			 "00002101 /etc/hosts\n");
	free(out);
	RENDER(out, opensnoop_print(f, &e, 1000000000ULL, 0, 1));
	ck_assert_str_eq(out, "{\"ts\":1.500000000,\"pid\":181,\"tid\":182,"
			 "\"uid\":1000,\"comm\":\"cat\",\"fd\":3,\"err\":0,"
			 "\"flags\":1089,\"path\":\"/etc/hosts\"}\n");
	free(out);
	/* a path that would forge a line, and a comm with ESC */
	strcpy(e.fname, "/tmp/x\n12345  fake   3   0 /etc/shadow\xff");
	memcpy(e.comm, "a\033[2Jb", 6);
	e.ret = -2;
	RENDER(out, opensnoop_print(f, &e, e.ts,
				    OUT_BIT(OPENSNOOP_COL_PID), 0));
	ck_assert_str_eq(out, "181    a\\x1b[2Jb          -1   2 /tmp/x\\n12345  "
			 "fake   3   0 /etc/shadow\\xff\n");
	free(out);
	RENDER(out, opensnoop_print(f, &e, e.ts, 0, 1));
	ck_assert_msg(!json_check(out, strlen(out)), "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "\"comm\":\"a\\u001b[2Jb\""));
	ck_assert_ptr_nonnull(strstr(out, "shadow\\u00ff\"}"));
	free(out);
}
END_TEST

/* ---- execsnoop, as on_event printed it ---- */

static const char *old_arg_at(const struct execsnoop_event *e, unsigned i,
			      char *buf)
{
	memcpy(buf, e->args[i], EXECSNOOP_ARGSIZE);
	buf[EXECSNOOP_ARGSIZE - 1] = 0;
	return buf;
}

static void old_args_text(const struct execsnoop_event *e, unsigned n,
			  int quote, char *out, size_t len)
{
	char buf[EXECSNOOP_ARGSIZE];
	size_t k = 0;
	unsigned i;

	for (i = 0; i <= n && k + 8 < len; i++) {
		const char *s = i < n ? old_arg_at(e, i, buf) : "...";

		if (i == n && !(e->flags & EXECSNOOP_F_TRUNCATED))
			break;
		if (i)
			out[k++] = ' ';
		if (quote)
			out[k++] = '"';
		for (; *s && k + 4 < len; s++) {
			if (*s == '\n') {
				out[k++] = '\\';
				out[k++] = 'n';
			} else if (*s == '\\') {
				out[k++] = '\\';
				out[k++] = '\\';
			} else if (quote && *s == '"') {
				out[k++] = '\\';
				out[k++] = '"';
			} else {
				out[k++] = *s;
			}
		}
		if (quote)
			out[k++] = '"';
	}
	out[k] = 0;
}

struct old_exec_opts {
	int time, timestamp, print_uid, quote, json;
};

static void old_execsnoop_header(FILE *f, const struct old_exec_opts *o)
{
	if (o->time)
		fprintf(f, "%-9s", "TIME");
	if (o->timestamp)
		fprintf(f, "%-8s", "TIME(s)");
	if (o->print_uid)
		fprintf(f, "%-6s", "UID");
	fprintf(f, "%-16s %-7s %-7s %3s %s\n", "PCOMM", "PID", "PPID",
		"RET", "ARGS");
}

static void old_execsnoop(FILE *f, const struct execsnoop_event *e,
			  const struct execsnoop_line *l,
			  const struct old_exec_opts *o)
{
	char comm[sizeof(e->comm) + 1], buf[EXECSNOOP_ARGSIZE];
	static char line[EXECSNOOP_MAXARGS * (2 * EXECSNOOP_ARGSIZE + 3) + 8];
	unsigned n = l->nargs, ppid = l->ppid, i;
	const char *from = l->from;

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	if (o->json) {
		fprintf(f, "{\"time\":\"%s\",\"ts\":%.6f,\"comm\":", l->hms,
		       l->ts);
		json_str(f, comm);
		fprintf(f, ",\"pid\":%u,\"ppid\":", e->pid);
		if (from)
			fprintf(f, "%u,\"ppid_from\":\"%s\"", ppid, from);
		else
			fprintf(f, "null,\"ppid_from\":null");
		fprintf(f, ",\"uid\":%u,\"ret\":%d,\"args\":[", e->uid, e->ret);
		for (i = 0; i < n; i++) {
			if (i)
				fputc(',', f);
			json_str(f, old_arg_at(e, i, buf));
		}
		fprintf(f, "],\"truncated\":%s}\n",
		       e->flags & EXECSNOOP_F_TRUNCATED ? "true" : "false");
	} else {
		char ps[16] = "?";

		if (o->time)
			fprintf(f, "%-9s", l->hms);
		if (o->timestamp)
			fprintf(f, "%-8.3f", l->ts);
		if (o->print_uid)
			fprintf(f, "%-6u", e->uid);
		if (from)
			snprintf(ps, sizeof(ps), "%u", ppid);
		old_args_text(e, n, o->quote, line, sizeof(line));
		fprintf(f, "%-16s %-7u %-7s %3d %s\n", comm, e->pid, ps, e->ret,
		       line);
	}
}

static unsigned exec_mask(const struct old_exec_opts *o)
{
	return (o->time ? OUT_BIT(EXECSNOOP_COL_TIME) : 0) |
	       (o->timestamp ? OUT_BIT(EXECSNOOP_COL_TS) : 0) |
	       (o->print_uid ? OUT_BIT(EXECSNOOP_COL_UID) : 0);
}

static void rnd_exec(struct execsnoop_event *e, struct execsnoop_line *l)
{
	static const char *const from[] = { "fork", "proc", NULL };
	unsigned i;

	memset(e, 0, sizeof(*e));
	e->pid = rnd() % 5 ? rnd() % 100000 : (uint32_t)rnd();
	e->uid = rnd() % 3 ? 0 : (uint32_t)rnd() % 70000;
	e->ret = rnd() % 4 ? 0 : -(int)(rnd() % 140);
	e->flags = rnd() % 4 ? 0 : EXECSNOOP_F_TRUNCATED;
	rnd_name(e->comm, sizeof(e->comm), rnd() % 4 == 0);
	l->nargs = rnd() % (EXECSNOOP_MAXARGS + 1);
	for (i = 0; i < l->nargs; i++) {
		rnd_name(e->args[i], EXECSNOOP_ARGSIZE - 1, rnd() % 32 == 0);
		if (rnd() % 8 == 0) /* quotes, which -q escapes */
			e->args[i][0] = '"';
	}
	l->hms = rnd() % 2 ? "12:34:56" : "00:00:01";
	l->ts = (double)(rnd() % 10000000) / 1e3;
	l->ppid = rnd() % 100000;
	l->from = from[rnd() % 3];
	l->quote = 0;
}

START_TEST(test_execsnoop_replay)
{
	struct execsnoop_event *e = malloc(sizeof(*e));
	struct execsnoop_line l;
	int i, k;

	for (k = 0; k < 32; k++) {
		struct old_exec_opts o = { k & 1, !!(k & 2), !!(k & 4),
					   !!(k & 8), !!(k & 16) };

		if (!o.json)
			SAME(old_execsnoop_header(f, &o),
			     execsnoop_print_header(f, exec_mask(&o)));
		for (i = 0; i < 100; i++) {
			rnd_exec(e, &l);
			l.quote = o.quote;
			SAME(old_execsnoop(f, e, &l, &o),
			     execsnoop_print(f, e, &l, exec_mask(&o), o.json));
		}
	}
	free(e);
}
END_TEST

START_TEST(test_execsnoop_recorded)
{
	struct execsnoop_event *e = calloc(1, sizeof(*e));
	struct execsnoop_line l = { "10:11:12", 1.25, 1, "fork", 3, 0 };
	char *out = NULL;

	e->pid = 4242;
	e->uid = 1000;
	e->flags = EXECSNOOP_F_TRUNCATED;
	memcpy(e->comm, "echo", 4);
	strcpy(e->args[0], "/bin/echo");
	strcpy(e->args[1], "two words");
	strcpy(e->args[2], "a\nb");
	RENDER(out, execsnoop_print(f, e, &l, OUT_BIT(EXECSNOOP_COL_TIME) |
				    OUT_BIT(EXECSNOOP_COL_TS), 0));
	ck_assert_str_eq(out, "10:11:12 1.250   echo             4242    1       "
			 "  0 /bin/echo two words a\\nb ...\n");
	free(out);
	l.from = NULL;
	RENDER(out, execsnoop_print(f, e, &l, 0, 1));
	ck_assert_str_eq(out, "{\"time\":\"10:11:12\",\"ts\":1.250000,\"comm\":"
			 "\"echo\",\"pid\":4242,\"ppid\":null,\"ppid_from\":"
			 "null,\"uid\":1000,\"ret\":0,\"args\":[\"/bin/echo\","
			 "\"two words\",\"a\\nb\"],\"truncated\":true}\n");
	free(out);
	/* ESC and a byte that is not UTF-8 */
	strcpy(e->args[2], "\033]0;pwned\007\xff");
	l.nargs = 3;
	RENDER(out, execsnoop_print(f, e, &l, 0, 0));
	ck_assert_str_eq(out, "echo             4242    ?         0 /bin/echo two "
			 "words \\x1b]0;pwned\\x07\\xff ...\n");
	free(out);
	RENDER(out, execsnoop_print(f, e, &l, 0, 1));
	ck_assert_msg(!json_check(out, strlen(out)), "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "\"\\u001b]0;pwned\\u0007\\u00ff\"]"));
	free(out);
	/* a backslash, once escaped (not "\\\\\\\\"); quoted with -q */
	strcpy(e->args[2], "a\\nb \"c\"");
	RENDER(out, execsnoop_print(f, e, &l, 0, 0));
	ck_assert_str_eq(out, "echo             4242    ?         0 /bin/echo two "
			 "words a\\\\nb \"c\" ...\n");
	free(out);
	l.quote = 1;
	RENDER(out, execsnoop_print(f, e, &l, 0, 0));
	ck_assert_str_eq(out, "echo             4242    ?         0 \"/bin/echo\" "
			 "\"two words\" \"a\\\\nb \\\"c\\\"\" \"...\"\n");
	free(out);
	free(e);
}
END_TEST

/* ---- biosnoop and slowbio, as their print functions printed them ---- */

static void old_biosnoop_header(FILE *f, int queued)
{
	fprintf(f, "%-11s %-14s %-6s %-7s %-1s %-10s %-7s ", "TIME(s)", "COMM",
		"PID", "DISK", "T", "SECTOR", "BYTES");
	if (queued)
		fprintf(f, "%7s ", "QUE(ms)");
	fprintf(f, "%7s\n", "LAT(ms)");
}

static void old_bio_strings(const struct biosnoop_event *e, char *comm,
			    char *rwbs)
{
	if (!(e->flags & BIOSNOOP_F_WHO)) {
		strcpy(comm, "?");
	} else {
		memcpy(comm, e->comm, sizeof(e->comm));
		comm[sizeof(e->comm)] = 0;
	}
	memcpy(rwbs, e->rwbs, sizeof(e->rwbs));
	rwbs[sizeof(e->rwbs)] = 0;
}

static double old_since(uint64_t ts, uint64_t start_ts)
{
	return (double)(int64_t)(ts - start_ts) / 1e9;
}

static void old_biosnoop(FILE *f, const struct biosnoop_event *e,
			 uint64_t start_ts, const char *disk, int queued)
{
	char comm[sizeof(e->comm) + 1], rwbs[sizeof(e->rwbs) + 1];

	old_bio_strings(e, comm, rwbs);
	fprintf(f, "%-11.6f %-14.14s %-6u %-7s %-1c %-10llu %-7llu ",
		old_since(e->ts, start_ts), comm, e->pid, disk,
		biosnoop_type(rwbs), e->sector,
		(unsigned long long)e->nr_sector * 512);
	if (queued) {
		if (e->flags & BIOSNOOP_F_INSERTED)
			fprintf(f, "%7.2f ", e->qdelta / 1e6);
		else
			fprintf(f, "%7s ", "-");
	}
	fprintf(f, "%7.2f\n", e->delta / 1e6);
}

static void old_biosnoop_json(FILE *f, const struct biosnoop_event *e,
			      uint64_t start_ts, const char *disk, int queued)
{
	char comm[sizeof(e->comm) + 1], rwbs[sizeof(e->rwbs) + 1];

	old_bio_strings(e, comm, rwbs);
	fprintf(f, "{\"time\":%.6f,\"comm\":", old_since(e->ts, start_ts));
	json_str(f, comm);
	fprintf(f, ",\"pid\":%u,\"disk\":", e->pid);
	json_str(f, disk);
	fprintf(f, ",\"t\":\"%c\",\"rwbs\":", biosnoop_type(rwbs));
	json_str(f, rwbs);
	fprintf(f, ",\"sector\":%llu,\"bytes\":%llu", e->sector,
		(unsigned long long)e->nr_sector * 512);
	if (queued) {
		if (e->flags & BIOSNOOP_F_INSERTED)
			fprintf(f, ",\"que_ms\":%.3f", e->qdelta / 1e6);
		else
			fprintf(f, ",\"que_ms\":null");
	}
	fprintf(f, ",\"lat_ms\":%.3f}\n", e->delta / 1e6);
}

START_TEST(test_biosnoop_replay)
{
	static const char *const rwbs[] = { "R", "RS", "W", "WS", "FWS", "D",
					    "N", "F", "RA", "WFS" };
	static const char *const disks[] = { "sda", "loop7", "nvme0n1", "?",
					     "mmcblk0" };
	struct biosnoop_event e;
	int i, q;

	for (q = 0; q < 2; q++) {
		SAME(old_biosnoop_header(f, q), biosnoop_print_header(f, q));
		for (i = 0; i < 1000; i++) {
			uint64_t start = 1000000000ULL + rnd() % 2000;
			const char *d = disks[rnd() % 5];

			memset(&e, 0, sizeof(e));
			e.ts = 1000000000ULL + rnd() % 100000000000ULL;
			e.delta = rnd() % 4 ? rnd() % 100000000 : rnd() % (1ULL << 40);
			e.qdelta = rnd() % 10000000;
			e.sector = rnd() % 3 ? rnd() % 100000000 : rnd();
			e.nr_sector = rnd() % 4096;
			e.pid = rnd() % 100000;
			e.flags = rnd() % 4;
			strcpy(e.rwbs, rwbs[rnd() % 10]);
			rnd_name(e.comm, sizeof(e.comm), rnd() % 4 == 0);
			SAME(old_biosnoop(f, &e, start, d, q),
			     biosnoop_print(f, &e, start, d, q));
			SAME(old_biosnoop_json(f, &e, start, d, q),
			     biosnoop_print_json(f, &e, start, d, q));
		}
	}
}
END_TEST

static void old_slowbio(FILE *f, const struct slowbio_event *e,
			uint64_t start_ts, const char *disk, int ms)
{
	char comm[sizeof(e->comm) + 1];

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	fprintf(f, "%-18.9f %-16s %-7u ", old_since(e->ts, start_ts), comm,
		e->pid);
	if (ms)
		fprintf(f, "%10.2f", e->lat / 1e6);
	else
		fprintf(f, "%10llu", e->lat / 1000);
	fprintf(f, " %s\n", disk);
}

static void old_slowbio_json(FILE *f, const struct slowbio_event *e,
			     uint64_t start_ts, const char *disk)
{
	char comm[sizeof(e->comm) + 1];

	memcpy(comm, e->comm, sizeof(e->comm));
	comm[sizeof(e->comm)] = 0;
	fprintf(f, "{\"time\":%.9f,\"comm\":", old_since(e->ts, start_ts));
	json_str(f, comm);
	fprintf(f, ",\"pid\":%u,\"tid\":%u,\"lat_us\":%llu,\"disk\":", e->pid,
		e->tid, e->lat / 1000);
	json_str(f, disk);
	fputs("}\n", f);
}

START_TEST(test_slowbio_replay)
{
	struct slowbio_event e;
	int i, ms;

	SAME(fprintf(f, "%-18s %-16s %-7s %10s %s\n", "TIME(s)", "COMM", "PID",
		     "LAT(us)", "DISK"), slowbio_print_header(f, 0));
	SAME(fprintf(f, "%-18s %-16s %-7s %10s %s\n", "TIME(s)", "COMM", "PID",
		     "LAT(ms)", "DISK"), slowbio_print_header(f, 1));
	for (ms = 0; ms < 2; ms++)
		for (i = 0; i < 1000; i++) {
			uint64_t start = 1000000000ULL + rnd() % 2000;
			const char *d = i % 3 ? "sdb" : "?";

			memset(&e, 0, sizeof(e));
			e.ts = 1000000000ULL + rnd() % 100000000000ULL;
			e.lat = rnd() % 4 ? rnd() % 100000000 : rnd() % (1ULL << 42);
			e.pid = rnd() % 100000;
			e.tid = e.pid + rnd() % 4;
			rnd_name(e.comm, sizeof(e.comm), rnd() % 4 == 0);
			SAME(old_slowbio(f, &e, start, d, ms),
			     slowbio_print(f, &e, start, d, ms));
			SAME(old_slowbio_json(f, &e, start, d),
			     slowbio_print_json(f, &e, start, d));
		}
}
END_TEST

/* biosnoop's comm is cut at 14 bytes before it is escaped, a cut
 * character escaped byte by byte; slowbio's disk is escaped too. */
START_TEST(test_bio_escapes)
{
	struct biosnoop_event e;
	struct slowbio_event s;
	char *out = NULL;

	memset(&e, 0, sizeof(e));
	e.flags = BIOSNOOP_F_WHO;
	strcpy(e.rwbs, "W");
	memcpy(e.comm, "abcdefghijkl\xc3\xa9\033x", 16);
	RENDER(out, biosnoop_print(f, &e, 0, "sda", 0));
	ck_assert_str_eq(out, "0.000000    abcdefghijkl\xc3\xa9 0      sda     W "
			 "0          0          0.00\n");
	free(out);
	memcpy(e.comm, "abcdefghijklm\xc3\xa9", 15);
	RENDER(out, biosnoop_print(f, &e, 0, "sda", 0));
	ck_assert_str_eq(out, "0.000000    abcdefghijklm\\xc3 0      sda     W "
			 "0          0          0.00\n");
	free(out);
	memset(&s, 0, sizeof(s));
	memcpy(s.comm, "k\033[0m", 6);
	RENDER(out, slowbio_print(f, &s, 0, "d\n1", 0));
	ck_assert_str_eq(out, "0.000000000        k\\x1b[0m         0       "
			 "         0 d\\n1\n");
	free(out);
}
END_TEST

/* ---- freeze, as print_event printed a record before its stack (and
 * the queue/ file after the disk, '-' or null for none) ---- */

static void old_freeze(FILE *f, const struct freeze_event *ev,
		       const char *hms, const char *disk, int json)
{
	char comm[FREEZE_COMM_LEN + 1], attr[FREEZE_ATTR_LEN + 1];

	snprintf(comm, sizeof(comm), "%.*s", FREEZE_COMM_LEN, ev->comm);
	snprintf(attr, sizeof(attr), "%.*s", FREEZE_ATTR_LEN, ev->attr);
	if (json) {
		fprintf(f, "{\"time\":\"%s\",\"comm\":", hms);
		json_str(f, comm);
		fprintf(f, ",\"pid\":%u,\"tid\":%u,\"disk\":", ev->pid, ev->tid);
		json_str(f, disk);
		fprintf(f, ",\"attr\":");
		if (attr[0])
			json_str(f, attr);
		else
			fprintf(f, "null");
		fprintf(f, ",\"frozen_us\":%llu,\"drain_us\":",
		       (unsigned long long)(ev->frozen_ns / 1000));
		if (ev->drain_ns)
			fprintf(f, "%llu",
			       (unsigned long long)(ev->drain_ns / 1000));
		else
			fprintf(f, "null");
		fprintf(f, ",\"nested\":%u", ev->nested);
	} else {
		char drain[32] = "-";

		if (ev->drain_ns)
			snprintf(drain, sizeof(drain), "%.3f",
				 ev->drain_ns / 1e6);
		fprintf(f, "%-8s %-16s %-7u %-12s %-12s %12.3f %10s %6u", hms,
		       comm, ev->pid, disk, attr[0] ? attr : "-",
		       ev->frozen_ns / 1e6, drain, ev->nested);
	}
}

START_TEST(test_freeze_replay)
{
	static const char *const disks[] = { "sda", "nvme0n1", "?", "loop12",
					     "mmcblk0boot0" };
	static const char *const attrs[] = { "scheduler", "nr_requests", "",
					     "wbt_lat_usec", "" };
	struct freeze_event ev;
	int i;

	SAME(fprintf(f, "%-8s %-16s %-7s %-12s %-12s %12s %10s %6s\n", "TIME",
		     "COMM", "PID", "DISK", "ATTR", "FROZEN(ms)", "DRAIN(ms)",
		     "NESTED"), freeze_print_header(f));
	for (i = 0; i < 2000; i++) {
		const char *d = disks[rnd() % 5];

		memset(&ev, 0, sizeof(ev));
		ev.frozen_ns = rnd() % 3 ? rnd() % 10000000000ULL : rnd() % 1000;
		ev.drain_ns = rnd() % 3 ? rnd() % (ev.frozen_ns + 1) + 1 : 0;
		ev.pid = rnd() % 100000;
		ev.tid = ev.pid + rnd() % 3;
		ev.nested = rnd() % 4;
		rnd_name(ev.comm, sizeof(ev.comm), rnd() % 4 == 0);
		if (rnd() % 8)
			snprintf(ev.attr, sizeof(ev.attr), "%s",
				 attrs[rnd() % 5]);
		else /* the longest the kernel can send, unterminated */
			memset(ev.attr, 'a', sizeof(ev.attr));
		SAME(old_freeze(f, &ev, "01:02:03", d, i & 1),
		     freeze_print_record(f, &ev, "01:02:03", d, i & 1));
	}
}
END_TEST

/* ---- vfsstat, as print_rates and its main printed a line ---- */

static void old_vfsstat_header(FILE *f)
{
	static const char *const cols[VFS_NSTATS] = {
		"READ", "WRITE", "FSYNC", "OPEN", "CREATE"
	};
	char head[128];
	int k, n;

	n = snprintf(head, sizeof(head), "%-8s  ", "TIME");
	for (k = 0; k < VFS_NSTATS; k++)
		n += snprintf(head + n, sizeof(head) - n, " %6s/s", cols[k]);
	fprintf(f, "%s\n", head);
}

static void old_vfsstat(FILE *f, const uint64_t *d, double interval,
			const char *hms, int json)
{
	static const char *const cols[VFS_NSTATS] = {
		"READ", "WRITE", "FSYNC", "OPEN", "CREATE"
	};
	int k;

	if (json) {
		fprintf(f, "{\"time\":\"%s\",\"interval\":%g", hms, interval);
		for (k = 0; k < VFS_NSTATS; k++)
			fprintf(f, ",\"%s/s\":%llu,\"%s\":%llu", cols[k],
			       (unsigned long long)(d[k] / interval),
			       cols[k], (unsigned long long)d[k]);
		fprintf(f, "}\n");
		return;
	}
	fprintf(f, "%-8s: ", hms);
	for (k = 0; k < VFS_NSTATS; k++)
		fprintf(f, " %8llu", (unsigned long long)(d[k] / interval));
	fputc('\n', f);
}

START_TEST(test_vfsstat_replay)
{
	static const double iv[] = { 1, 0.5, 2.5, 10, 0.1 };
	uint64_t d[VFS_NSTATS];
	int i, k;

	SAME(old_vfsstat_header(f), vfsstat_print_header(f));
	for (i = 0; i < 2000; i++) {
		for (k = 0; k < VFS_NSTATS; k++)
			d[k] = rnd() % 3 ? rnd() % 100000 :
			       rnd() % 4 ? 0 : rnd() % 10000000000ULL;
		SAME(old_vfsstat(f, d, iv[i % 5], "23:59:01", i & 1),
		     vfsstat_print(f, d, iv[i % 5], "23:59:01", i & 1));
	}
}
END_TEST

static Suite *records_suite(void)
{
	Suite *s = suite_create("records");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_opensnoop_replay);
	tcase_add_test(tc, test_opensnoop_recorded);
	tcase_add_test(tc, test_execsnoop_replay);
	tcase_add_test(tc, test_execsnoop_recorded);
	tcase_add_test(tc, test_biosnoop_replay);
	tcase_add_test(tc, test_slowbio_replay);
	tcase_add_test(tc, test_bio_escapes);
	tcase_add_test(tc, test_freeze_replay);
	tcase_add_test(tc, test_vfsstat_replay);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(records, records_suite, NULL)
