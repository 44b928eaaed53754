/* SPDX-License-Identifier: MIT */
/*
 * barebpf hardirqs and softirqs on this machine's kernel: their -C counts
 * against the kernel's own, the deltas of /proc/interrupts and
 * /proc/softirqs over the same window (read just after the Tracing line
 * and just before the SIGINT that prints the summary; a few percent
 * apart at most, for what ran 300 times or more). Disk reads (O_DIRECT)
 * during the window make a device interrupt. The time mode and -d print
 * bcc's headers; -j is valid JSON lines.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bbtest.h"
#include "jsoncheck.h"
#include "util.h"

#define MAXL 64
struct counts {
	char name[MAXL][40];
	unsigned long long n[MAXL];
	int len;
};

static void add(struct counts *c, const char *name, unsigned long long n)
{
	int i;

	for (i = 0; i < c->len; i++)
		if (!strcmp(c->name[i], name)) {
			c->n[i] += n;
			return;
		}
	if (c->len == MAXL)
		return;
	snprintf(c->name[c->len], sizeof(c->name[0]), "%s", name);
	c->n[c->len++] = n;
}

static unsigned long long get(const struct counts *c, const char *name)
{
	int i;

	for (i = 0; i < c->len; i++)
		if (!strcmp(c->name[i], name))
			return c->n[i];
	return 0;
}

static int ncpus_of(const char *head)
{
	int n = 0;
	const char *p;

	for (p = head; (p = strstr(p, "CPU")); p += 3)
		n++;
	return n;
}

/* /proc/softirqs: "   TIMER:  1  2" -> "timer" = 3 */
static void read_softirqs(struct counts *c)
{
	FILE *f = fopen("/proc/softirqs", "r");
	char line[4096], name[40];
	int ncpu, i, off;
	unsigned long long v, sum;
	char *p;

	memset(c, 0, sizeof(*c));
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ncpu = ncpus_of(line);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %39[^:]:%n", name, &off) != 1)
			continue;
		for (p = name; *p; p++)
			*p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
		p = line + off;
		for (i = 0, sum = 0; i < ncpu; i++) {
			v = strtoull(p, &p, 10);
			sum += v;
		}
		add(c, name, sum);
	}
	fclose(f);
}

/* /proc/interrupts: numbered lines with one handler's name last */
static void read_interrupts(struct counts *c)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[4096], *p, *name;
	int ncpu, i;
	unsigned long long sum;
	size_t l;

	memset(c, 0, sizeof(*c));
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ncpu = ncpus_of(line);
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (*p < '0' || *p > '9' || !(p = strchr(p, ':')))
			continue;
		p++;
		for (i = 0, sum = 0; i < ncpu; i++)
			sum += strtoull(p, &p, 10);
		l = strlen(line);
		while (l && (line[l - 1] == '\n' || line[l - 1] == ' '))
			line[--l] = 0;
		name = strrchr(line, ' ');
		if (!name || strchr(line, ','))
			continue; /* shared: several names */
		add(c, name + 1, sum);
	}
	fclose(f);
}

/* "name   N" rows of a summary, after its TOTAL_ header */
static void read_rows(const char *out, struct counts *c)
{
	const char *l = strstr(out, "TOTAL_count\n");
	char name[40];
	unsigned long long n;

	memset(c, 0, sizeof(*c));
	ck_assert_msg(l, "no TOTAL_count header: %s", out);
	for (l = strchr(l, '\n'); l && *++l; l = strchr(l, '\n'))
		if (sscanf(l, "%39s %llu", name, &n) == 2)
			add(c, name, n);
}

/*
 * Work that makes interrupts: 2,048 direct 4 KiB reads of a file in /tmp
 * (a disk's interrupts, where /tmp is on one), 3,000 UDP datagrams to
 * ourselves over loopback (a NET_RX softirq each, or nearly), a second.
 */
static void load(void)
{
	char path[] = "/tmp/bbtest-irqs-XXXXXX", err[256];
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	void *buf = NULL;
	int fd, s, r, i;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(err, sizeof(err), "dd if=/dev/zero of=%s bs=1M count=4 "
		 "conv=fsync 2>/dev/null", path);
	sh(err, err, sizeof(err));
	ck_assert_int_eq(posix_memalign(&buf, 4096, 4096), 0);
	fd = open(path, O_RDONLY | O_DIRECT);
	for (i = 0; fd >= 0 && i < 2048; i++)
		if (pread(fd, buf, 4096, (off_t)(i % 1024) * 4096) != 4096)
			break;
	if (fd >= 0)
		close(fd);
	unlink(path);
	free(buf);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	r = socket(AF_INET, SOCK_DGRAM, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_ge(r, 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(r, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(getsockname(r, (struct sockaddr *)&a, &al), 0);
	for (i = 0; i < 3000; i++) {
		sendto(s, "x", 1, 0, (struct sockaddr *)&a, sizeof(a));
		recv(r, err, sizeof(err), MSG_DONTWAIT);
	}
	close(s);
	close(r);
	sleep(1);
}

/* Run TOOL -C around a window of reads; compare with the kernel's. */
static void check_counts(const char *tool, void (*kernel)(struct counts *))
{
	static char out[65536];
	char *argv[] = { (char *)barebpf(), (char *)tool, "-C", NULL };
	struct counts a, b, t;
	struct proc p;
	size_t n;
	int i, checked = 0;
	unsigned long long d, got;

	spawn(&p, argv);
	n = read_until(p.out, out, sizeof(out), "Hit Ctrl-C to end.\n", 30000);
	ck_assert_msg(strstr(out, "Hit Ctrl-C to end.\n"), "%s did not start:"
		      " %s", tool, out);
	kernel(&a);
	load();
	kernel(&b);
	kill(p.pid, SIGINT);
	read_more(p.out, out, sizeof(out), &n, NULL, 30000);
	ck_assert_int_eq(wait_exit(p.pid), 0);
	read_rows(out, &t);
	for (i = 0; i < b.len; i++) {
		d = b.n[i] - get(&a, b.name[i]);
		if (d < 300)
			continue;
		got = get(&t, b.name[i]);
		ck_assert_msg(got * 100 >= d * 95 && got * 100 <= d * 105,
			      "%s -C: %s %llu, the kernel's %llu:\n%s", tool,
			      b.name[i], got, d, out);
		checked++;
		fprintf(stderr, "# %s -C: %s %llu, the kernel's %llu\n", tool,
			b.name[i], got, d);
	}
	if (!checked)
		bbtest_skip("nothing of /proc/%s ran 300 times in the window",
			    tool[0] == 'h' ? "interrupts" : "softirqs");
}

START_TEST(test_hardirqs_counts)
{
	check_counts("hardirqs", read_interrupts);
}
END_TEST

START_TEST(test_softirqs_counts)
{
	check_counts("softirqs", read_softirqs);
}
END_TEST

static int lines_of(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Time and -d, text and JSON, exits by itself with interval count. */
START_TEST(test_irqs_modes)
{
	static char out[65536], err[4096];
	static const char *const tools[] = { "hardirqs", "softirqs" };
	static const char *const heads[] = {
		"\nHARDIRQ                    TOTAL_usecs\n",
		"\nSOFTIRQ          TOTAL_usecs\n" };
	int i;

	for (i = 0; i < 2; i++) {
		char *text[] = { (char *)barebpf(), (char *)tools[i], "1", "2",
				 NULL };
		char *dist[] = { (char *)barebpf(), (char *)tools[i], "-d", "-T",
				 "1", "1", NULL };
		char *json[] = { (char *)barebpf(), (char *)tools[i], "-j", "-C",
				 "0.5", "2", NULL };
		char *l, *e;

		ck_assert_int_eq(run(text, out, sizeof(out), err, sizeof(err)),
				 0);
		ck_assert_msg(strstr(out, heads[i]), "%s: %s", tools[i], out);
		ck_assert_int_eq(run(dist, out, sizeof(out), err, sizeof(err)),
				 0);
		ck_assert_msg(strstr(out, i ? "softirq = " : "hardirq = ") ||
			      i == 0, "%s -d: %s", tools[i], out);
		ck_assert_int_eq(run(json, out, sizeof(out), err, sizeof(err)),
				 0);
		for (l = out, e = strchr(l, '\n'); e; l = e + 1,
		     e = strchr(l, '\n'))
			ck_assert_msg(json_check(l, e - l) == 0, "%s", out);
		ck_assert_msg(lines_of(out) == 2, "%s -j 0.5 2: %s", tools[i],
			      out);
	}
}
END_TEST

static Suite *irqs_suite(void)
{
	Suite *s = suite_create("irqs");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hardirqs_counts);
	tcase_add_test(tc, test_softirqs_counts);
	tcase_add_test(tc, test_irqs_modes);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(irqs, irqs_suite, need_root_and_tools)
