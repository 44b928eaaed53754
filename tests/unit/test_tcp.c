/* SPDX-License-Identifier: MIT */
/*
 * The network tools' pure parts: TCP state names and addresses
 * (loader/cli/netfmt.c), tcpstates', tcplife's and tcpretrans' lines in
 * bcc's formats and as JSON, -L/-D's port lists.
 */
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "netfmt.h"
#include "tcpstates_out.h"
#include "tcplife_out.h"
#include "tcpretrans_out.h"
#include "mods.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

static const unsigned char lo4[4] = { 127, 0, 0, 1 };
static const unsigned char ten4[4] = { 10, 1, 2, 3 };
static const unsigned char v6a[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
				       0, 0, 0, 0, 0, 0, 0, 1 };

START_TEST(test_state_names)
{
	static const char *const want[] = {
		"ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1", "FIN_WAIT2",
		"TIME_WAIT", "CLOSE", "CLOSE_WAIT", "LAST_ACK", "LISTEN",
		"CLOSING", "NEW_SYN_RECV",
	};
	char b[16];
	int i;

	for (i = 0; i < 12; i++)
		ck_assert_str_eq(tcp_state_name(i + 1, b, sizeof(b)), want[i]);
	ck_assert_str_eq(tcp_state_name(0, b, sizeof(b)), "0");
	ck_assert_str_eq(tcp_state_name(13, b, sizeof(b)), "13");
	ck_assert_str_eq(tcp_state_name(-1, b, sizeof(b)), "-1");
}
END_TEST

START_TEST(test_addresses)
{
	char b[64];

	ck_assert_str_eq(net_addr_str(2, lo4, b, sizeof(b)), "127.0.0.1");
	ck_assert_str_eq(net_addr_str(10, v6a, b, sizeof(b)), "2001:db8::1");
	ck_assert_str_eq(net_addr_str(1, v6a, b, sizeof(b)), "?");
	ck_assert_int_eq(net_ip_version(2), 4);
	ck_assert_int_eq(net_ip_version(10), 6);
	ck_assert_int_eq(net_ip_version(0), 0);
}
END_TEST

static struct tcpstates_event st_ev(void)
{
	struct tcpstates_event e;

	memset(&e, 0, sizeof(e));
	e.skaddr = 0xffff888173880000ULL;
	e.span_ns = 102576000; /* 102.576 ms */
	e.pid = 25411;
	e.oldstate = 1;
	e.newstate = 4;
	e.f.family = 2;
	memcpy(e.f.saddr, lo4, 4);
	memcpy(e.f.daddr, ten4, 4);
	e.f.lport = 34908;
	e.f.dport = 41133;
	memcpy(e.comm, "a_long_process_n", 16); /* no NUL */
	return e;
}

START_TEST(test_tcpstates_text)
{
	struct tcpstates_event e = st_ev();
	char *out;

	RENDER(out, tcpstates_print_header(f, 0));
	ck_assert_str_eq(out, "SKADDR           C-PID C-COMM     LADDR         "
			 "  LPORT RADDR           RPORT OLDSTATE    -> NEWSTATE"
			 "    MS\n");
	free(out);
	/* bcc: "%-16x %-5d %-10.10s %s%-15s %-5d %-15s %-5d %-11s -> %-11s
	 * %.3f" */
	RENDER(out, tcpstates_print(f, &e, 0, "12:00:00", 0, 0));
	ck_assert_str_eq(out, "ffff888173880000 25411 a_long_pro 127.0.0.1     "
			 "  34908 10.1.2.3        41133 ESTABLISHED -> "
			 "FIN_WAIT1   102.576\n");
	free(out);
	/* -w: an IP column, the whole name; -T -t before */
	RENDER(out, tcpstates_print(f, &e, TCPSTATES_WIDE | TCPSTATES_TIME |
				    TCPSTATES_TS, "12:00:00", 1.5, 0));
	ck_assert_str_eq(out, "12:00:00 1.500000  ffff888173880000 25411 "
			 "a_long_process_n 4  127.0.0.1                  34908 "
			 "10.1.2.3                   41133 ESTABLISHED -> "
			 "FIN_WAIT1   102.576\n");
	free(out);
	RENDER(out, tcpstates_print(f, &e, TCPSTATES_CSV | TCPSTATES_TIME,
				    "12:00:00", 0, 0));
	ck_assert_str_eq(out, "12:00:00,ffff888173880000,25411,a_long_process_"
			 "n,4,127.0.0.1,34908,10.1.2.3,41133,ESTABLISHED,"
			 "FIN_WAIT1,102.576\n");
	free(out);
	RENDER(out, tcpstates_print_header(f, TCPSTATES_CSV | TCPSTATES_TS));
	ck_assert_str_eq(out, "TIME(s),SKADDR,C-PID,C-COMM,IP,LADDR,LPORT,RADDR,"
			 "RPORT,OLDSTATE,NEWSTATE,MS\n");
	free(out);
}
END_TEST

START_TEST(test_tcpstates_json)
{
	struct tcpstates_event e = st_ev();
	char *out;

	memcpy(e.comm, "x\033\n", 4);
	e.f.family = 10;
	memcpy(e.f.saddr, v6a, 16);
	memcpy(e.f.daddr, v6a, 16);
	RENDER(out, tcpstates_print(f, &e, 0, "12:00:00", 0.25, 1));
	ck_assert_str_eq(out, "{\"time\":\"12:00:00\",\"ts\":0.250000,"
			 "\"skaddr\":\"ffff888173880000\",\"pid\":25411,"
			 "\"comm\":\"x\\u001b\\n\",\"ip\":6,\"laddr\":"
			 "\"2001:db8::1\",\"lport\":34908,\"raddr\":"
			 "\"2001:db8::1\",\"rport\":41133,\"oldstate\":"
			 "\"ESTABLISHED\",\"newstate\":\"FIN_WAIT1\","
			 "\"ms\":102.576}\n");
	free(out);
	RENDER(out, tcpstates_print(f, &e, 0, "12:00:00", 0, 0));
	ck_assert_msg(!strchr(out, '\033') && strstr(out, " x\\x1b\\n "),
		      "%s", out);
	free(out);
}
END_TEST

START_TEST(test_tcplife_text)
{
	struct tcplife_event e;
	char *out;

	memset(&e, 0, sizeof(e));
	e.pid = 17474;
	memcpy(e.comm, "python3", 8);
	e.f.family = 2;
	memcpy(e.f.saddr, lo4, 4);
	memcpy(e.f.daddr, lo4, 4);
	e.f.lport = 55244;
	e.f.dport = 42985;
	e.tx_b = 300002; /* 292.97 KB: bcc's %d of the quotient, 292 */
	e.rx_b = 500001;
	e.span_ns = 104003000;
	RENDER(out, tcplife_print_header(f, 0));
	ck_assert_str_eq(out, "PID   COMM       LADDR           LPORT RADDR   "
			 "        RPORT TX_KB RX_KB MS\n");
	free(out);
	/* bcc: "%-5d %-10.10s %s%-15s %-5d %-15s %-5d %5d %5d %.2f" */
	RENDER(out, tcplife_print(f, &e, 0, "", 0, 0));
	ck_assert_str_eq(out, "17474 python3    127.0.0.1       55244 127.0.0.1"
			 "       42985   292   488 104.00\n");
	free(out);
	RENDER(out, tcplife_print(f, &e, TCPLIFE_WIDE, "", 0, 0));
	ck_assert_str_eq(out, "17474 python3          4  127.0.0.1            "
			 "      55244 127.0.0.1                  42985    292 "
			 "   488 104.00\n");
	free(out);
	RENDER(out, tcplife_print(f, &e, 0, "09:08:07", 0, 1));
	ck_assert_str_eq(out, "{\"time\":\"09:08:07\",\"ts\":0.000000,"
			 "\"pid\":17474,\"comm\":\"python3\",\"ip\":4,\"laddr\":"
			 "\"127.0.0.1\",\"lport\":55244,\"raddr\":\"127.0.0.1\","
			 "\"rport\":42985,\"tx_bytes\":300002,\"rx_bytes\":"
			 "500001,\"ms\":104.003}\n");
	free(out);
}
END_TEST

START_TEST(test_tcpretrans_lines)
{
	struct tcpretrans_event e;
	struct tcpretrans_count c[3];
	char *out;

	memset(&e, 0, sizeof(e));
	e.pid = 24956;
	e.type = TCPRETRANS_RETRANSMIT;
	e.f.family = 2;
	memcpy(e.f.saddr, lo4, 4);
	memcpy(e.f.daddr, ten4, 4);
	e.f.lport = 33440;
	e.f.dport = 9;
	e.f.state = 2;
	RENDER(out, tcpretrans_print_header(f));
	ck_assert_str_eq(out, "TIME     PID    IP LADDR:LPORT          T> "
			 "RADDR:RPORT          STATE\n");
	free(out);
	RENDER(out, tcpretrans_print(f, &e, "04:38:29", 0));
	ck_assert_str_eq(out, "04:38:29 24956  4  127.0.0.1:33440      R> "
			 "10.1.2.3:9           SYN_SENT\n");
	free(out);
	e.type = TCPRETRANS_TLP;
	e.f.state = 1;
	RENDER(out, tcpretrans_print(f, &e, "04:38:29", 1));
	ck_assert_str_eq(out, "{\"time\":\"04:38:29\",\"pid\":24956,\"ip\":4,"
			 "\"laddr\":\"127.0.0.1\",\"lport\":33440,\"type\":"
			 "\"L\",\"raddr\":\"10.1.2.3\",\"rport\":9,\"state\":"
			 "\"ESTABLISHED\"}\n");
	free(out);
	/* -c: IPv4's flows, then IPv6's, each the smallest count first */
	memset(c, 0, sizeof(c));
	c[0].k.f = e.f;
	c[0].k.f.state = 0;
	c[0].n = 7;
	c[1].k.f.family = 10;
	memcpy(c[1].k.f.saddr, v6a, 16);
	memcpy(c[1].k.f.daddr, v6a, 16);
	c[1].k.f.lport = 1;
	c[1].k.f.dport = 2;
	c[1].n = 1;
	c[2].k.f = c[0].k.f;
	c[2].k.f.lport = 33441;
	c[2].n = 3;
	RENDER(out, tcpretrans_print_counts(f, c, 3, 0));
	ck_assert_str_eq(out, "\nLADDR:LPORT               RADDR:RPORT         "
			 "      RETRANSMITS\n"
			 "[127.0.0.1]#33441    <-> [10.1.2.3]#9                  3\n"
			 "[127.0.0.1]#33440    <-> [10.1.2.3]#9                  7\n"
			 "[2001:db8::1]#1      <-> [2001:db8::1]#2               1\n");
	free(out);
}
END_TEST

#define PL p.port, &p.n, TCPSOCK_MAXPORTS
START_TEST(test_port_lists)
{
	struct tool_ctx t;
	struct tcpsock_ports p;

	tool_init(&t, "tcpstates");
	ck_assert_int_eq(opt_ports(&t, "-L", "80", PL), 0);
	ck_assert_int_eq(p.n, 1);
	ck_assert_int_eq(p.port[0], 80);
	ck_assert_int_eq(opt_ports(&t, "-L", "80,81,65535", PL), 0);
	ck_assert_int_eq(p.n, 3);
	ck_assert_int_eq(p.port[2], 65535);
	ck_assert_int_lt(opt_ports(&t, "-L", "80,", PL), 0);
	ck_assert_int_lt(opt_ports(&t, "-L", "0", PL), 0);
	ck_assert_int_lt(opt_ports(&t, "-L", "65536", PL), 0);
	ck_assert_int_lt(opt_ports(&t, "-L", "http", PL), 0);
	ck_assert_int_lt(opt_ports(&t, "-L", "1,2,3,4,5,6,7,8,9,10,"
					     "11,12,13,14,15,16,17", PL), 0);
	ck_assert_int_lt(opt_ports(&t, "-L", "-80", PL), 0);
	ck_assert_int_lt(opt_ports(&t, "-L", "80,,81", PL), 0);
}
END_TEST

static Suite *tcp_suite(void)
{
	Suite *s = suite_create("tcp");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, test_state_names);
	tcase_add_test(tc, test_addresses);
	tcase_add_test(tc, test_tcpstates_text);
	tcase_add_test(tc, test_tcpstates_json);
	tcase_add_test(tc, test_tcplife_text);
	tcase_add_test(tc, test_tcpretrans_lines);
	tcase_add_test(tc, test_port_lists);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(tcp, tcp_suite, NULL)
