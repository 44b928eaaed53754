/* SPDX-License-Identifier: MIT */
/*
 * trace's VALUE->member on this kernel (BTF, no kprobes): the tracepoint
 * sock:inet_sock_set_state gives a struct sock pointer (skaddr) and, as
 * numbers, what the kernel read from that sock; trace reads the same
 * members through the pointer at the offsets the BTF gives, and they must
 * agree for each transition of a loopback connection of ours. A field
 * without BTF is a refusal naming it and --btf.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"
#include "kernel.h"

#define SK "((struct sock *)args->skaddr)"

/* listen on port, connect to it, accept, close both ends */
static void connect_once(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	int l = socket(AF_INET, SOCK_STREAM, 0), one = 1, c, s;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_ge(l, 0);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	ck_assert_int_eq(bind(l, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(listen(l, 4), 0);
	c = tcp_connect(port, 0);
	ck_assert_int_ge(c, 0);
	s = accept(l, NULL, NULL);
	ck_assert_int_ge(s, 0);
	close(c);
	close(s);
	close(l);
}

/* trace ARGS while we connect once to port; its stdout in out */
static int trace_connect(const char *probe, int port, char *out, size_t len)
{
	char *argv[] = { (char *)barebpf(), "trace", (char *)probe, NULL };
	char err[4096] = "";
	struct proc p;
	size_t n;

	spawn(&p, argv);
	n = trace_started(&p, argv, out, len);
	connect_once(port);
	n += read_until(p.out, out + n, len - n, NULL, 1500);
	kill(p.pid, SIGINT);
	read_until(p.out, out + n, len - n, NULL, 10000);
	read_until(p.err, err, sizeof(err), NULL, 5000);
	close(p.out);
	close(p.err);
	ck_assert_msg(!strstr(err, "lost"), "stderr: %s", err);
	return wait_exit(p.pid);
}

START_TEST(test_trace_sock_fields)
{
	static char out[1 << 16];
	int port = free_port(), lines = 0, mine = 0, same = 0;
	char *l, *save = NULL;

	/* family and the old state as the tracepoint has them, then as
	 * trace reads them from the sock; the local port both ways */
	ck_assert_int_eq(trace_connect("t:sock:inet_sock_set_state \"F %d %d "
				       "%d %d %u %u %d\", args->family, " SK
				       "->__sk_common.skc_family, "
				       "args->oldstate, " SK "->sk_state, "
				       "args->sport, " SK "->__sk_common."
				       "skc_num, args->dport",
				       port, out, sizeof(out)), 0);
	for (l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		int fam, sfam, old, sst, dport;
		unsigned sport, num;
		const char *f = strstr(l, " F ");

		if (!f || sscanf(f, " F %d %d %d %d %u %u %d", &fam, &sfam, &old,
				 &sst, &sport, &num, &dport) != 7)
			continue;
		lines++;
		if ((int)sport != port && dport != port)
			continue;
		mine++;
		ck_assert_msg(fam == AF_INET && sfam == AF_INET, "%s", l);
		/* the tracepoint fires before the sock takes the new state */
		ck_assert_msg(old == sst, "%s", l);
		/* once a closing sock lets its port go, skc_num is 0 */
		if (sport && num)
			ck_assert_msg(num == sport, "%s", l);
		same += sport && num == sport;
	}
	/* CLOSE->LISTEN, CLOSE->SYN_SENT, SYN_SENT->ESTABLISHED,
	 * SYN_RECV->ESTABLISHED at least */
	ck_assert_msg(mine >= 4 && same >= 2, "%d lines of port %d of %d, %d "
		      "with the port read: %s", mine, port, lines, same, out);
}
END_TEST

/* a filter on a member: only transitions out of LISTEN (10) and CLOSE (7) */
START_TEST(test_trace_sock_field_filter)
{
	static char out[1 << 16];
	int port = free_port(), mine = 0;
	char *l, *save = NULL, probe[512];

	snprintf(probe, sizeof(probe), "t:sock:inet_sock_set_state (" SK
		 "->sk_state == 7 && args->sport == %d) \"F %%d %%d\", "
		 "args->oldstate, args->newstate", port);
	ck_assert_int_eq(trace_connect(probe, port, out, sizeof(out)), 0);
	for (l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		int old, new;
		const char *f = strstr(l, " F ");

		if (!f || sscanf(f, " F %d %d", &old, &new) != 2)
			continue;
		mine++;
		ck_assert_msg(old == 7, "%s", l);
	}
	/* CLOSE->LISTEN of the listener (its sport is the port); the
	 * connecting socket's port is another */
	ck_assert_msg(mine >= 1, "no transition out of CLOSE: %s", out);
}
END_TEST

/* no BTF (BAREBPF_FIELDS=discover leaves it out): refused, naming the
 * field and --btf; a --btf that cannot be read, too */
START_TEST(test_trace_field_refused)
{
	char *argv[] = { (char *)barebpf(), "trace", "t:sock:inet_sock_set_"
			 "state \"%d\", " SK "->sk_state", NULL };
	char *argv2[] = { (char *)barebpf(), "trace", "--btf",
			  "/nonexistent/btf", argv[2], NULL };
	char out[512], err[2048];

	setenv("BAREBPF_FIELDS", "discover", 1);
	ck_assert_int_ne(run(argv, out, sizeof(out), err, sizeof(err)), 0);
	unsetenv("BAREBPF_FIELDS");
	ck_assert_msg(strstr(err, "field sock.sk_state") &&
		      strstr(err, "--btf FILE") && strstr(err, "needs BTF"),
		      "%s", err);
	ck_assert_int_ne(run(argv2, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "field sock.sk_state") &&
		      strstr(err, "/nonexistent/btf"), "%s", err);
}
END_TEST

static const char *need_btf_and_tracepoint(void)
{
	const char *why = need_root_and_tools();
	char tfs[256], p[300];

	if (why)
		return why;
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return "no BTF (/sys/kernel/btf/vmlinux): trace's fields need "
		       "it (tested in QEMU)";
	if (tracefs_find(tfs, sizeof(tfs), NULL) < 0)
		return "no tracefs";
	snprintf(p, sizeof(p), "%s/events/sock/inet_sock_set_state", tfs);
	if (access(p, F_OK))
		return "no tracepoint sock:inet_sock_set_state (4.16+)";
	return NULL;
}

static Suite *trace_field_suite(void)
{
	Suite *s = suite_create("trace_field");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_trace_sock_fields);
	tcase_add_test(tc, test_trace_sock_field_filter);
	tcase_add_test(tc, test_trace_field_refused);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(trace_field, trace_field_suite, need_btf_and_tracepoint)
