/* SPDX-License-Identifier: MIT */
/*
 * tcpdrop's pure parts: its lines (bcc's columns, the reason, the stack a
 * frame a line; JSON with the stack an array), bcc's flag names, and the
 * drop reasons read from skb:kfree_skb's print fmt.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bbtest.h"
#include "tcpdrop_out.h"
#include "mods.h"

#define RENDER(out, call)                                                      \
	do {                                                                   \
		size_t len_ = 0;                                               \
		FILE *f = open_memstream(&(out), &len_);                       \
		ck_assert_ptr_nonnull(f);                                      \
		call;                                                          \
		fclose(f);                                                     \
	} while (0)

START_TEST(test_flags)
{
	char b[48];

	ck_assert_str_eq(tcpdrop_flags_str(0x12, b, sizeof(b)), "SYN|ACK");
	ck_assert_str_eq(tcpdrop_flags_str(0, b, sizeof(b)), "");
	ck_assert_str_eq(tcpdrop_flags_str(0xff, b, sizeof(b)),
			 "FIN|SYN|RST|PSH|ACK|URG|ECE|CWR");
	/* cut, never past the buffer */
	ck_assert_str_eq(tcpdrop_flags_str(0xff, b, 9), "FIN|SYN|");
}
END_TEST

START_TEST(test_lines)
{
	static const unsigned char v6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0,
					      0, 0, 0, 0, 0, 0, 0, 0, 1 };
	struct bb_ksyms *ks = NULL;
	uint64_t ips[3] = { 0xffffffff81000010ULL, 0xffffffff81000123ULL,
			    0x10 };
	struct tcpdrop_event e;
	char *out;

	ck_assert_int_ge(ksyms_parse(&ks, "ffffffff81000000 T tcp_drop\n"
				     "ffffffff81000100 t tcp_rcv_state_process\n"
				     "ffffffff81000200 T zzz\n"), 0);
	memset(&e, 0, sizeof(e));
	e.pid = 1234;
	e.family = 2;
	memcpy(e.saddr, "\x0a\x01\x02\x03", 4);
	memcpy(e.daddr, "\x7f\x00\x00\x01", 4);
	e.sport = 33440;
	e.dport = 80;
	e.state = 1;
	e.has_sk = 1;
	e.tcpflags = 0x18;
	e.has_flags = 1;
	RENDER(out, tcpdrop_print_header(f, 0));
	ck_assert_str_eq(out, "TIME     PID     IP SADDR:SPORT          > "
			 "DADDR:DPORT          STATE (FLAGS)\n");
	free(out);
	RENDER(out, tcpdrop_print(f, &e, "04:38:29", NULL, ks, ips, 3, 0));
	ck_assert_str_eq(out, "04:38:29 1234    4  10.1.2.3:33440       > "
			 "127.0.0.1:80         ESTABLISHED (PSH|ACK)\n"
			 "\ttcp_drop+0x10\n\ttcp_rcv_state_process+0x23\n"
			 "\t[unknown]\n\n");
	free(out);
	/* the tracepoint: no socket, a reason; a stack not read */
	e.has_sk = 0;
	e.tcpflags = 0x02;
	RENDER(out, tcpdrop_print_header(f, 1));
	ck_assert_str_eq(out, "TIME     PID     IP SADDR:SPORT          > "
			 "DADDR:DPORT          STATE (FLAGS) REASON\n");
	free(out);
	RENDER(out, tcpdrop_print(f, &e, "04:38:29", "NO_SOCKET", ks, ips,
				  -14, 0));
	ck_assert_str_eq(out, "04:38:29 1234    4  10.1.2.3:33440       > "
			 "127.0.0.1:80         - (SYN) NO_SOCKET\n"
			 "\t[no kernel stack: Bad address]\n\n");
	free(out);
	e.family = 10;
	memcpy(e.saddr, v6, 16);
	memcpy(e.daddr, v6, 16);
	e.has_sk = 1;
	e.state = 10;
	e.has_flags = 0;
	RENDER(out, tcpdrop_print(f, &e, "04:38:29", "TCP_\"X", ks, ips, 2,
				  1));
	ck_assert_str_eq(out, "{\"time\":\"04:38:29\",\"pid\":1234,\"ip\":6,"
			 "\"saddr\":\"2001:db8::1\",\"sport\":33440,\"daddr\":"
			 "\"2001:db8::1\",\"dport\":80,\"state\":\"LISTEN\","
			 "\"flags\":null,\"reason\":\"TCP_\\\"X\",\"kstack\":"
			 "[\"tcp_drop+0x10\",\"tcp_rcv_state_process+0x23\"]}"
			 "\n");
	free(out);
	RENDER(out, tcpdrop_print(f, &e, "04:38:29", NULL, ks, ips, 0, 1));
	ck_assert_ptr_nonnull(strstr(out, "\"reason\":null,\"kstack\":[]}"));
	free(out);
	ksyms_free(ks);
}
END_TEST

START_TEST(test_reasons)
{
	static struct tcpdrop_reasons r;
	static const char fmt[] =
		"print fmt: \"skbaddr=%p protocol=%u location=%pS reason: %s\""
		", REC->skbaddr, REC->protocol, REC->location, "
		"__print_symbolic(REC->reason, { 1, \"NOT_SPECIFIED\" }, "
		"{ 2, \"NO_SOCKET\" }, { 0x1b, \"TCP_CSUM\" })\n";

	ck_assert_int_eq(tcpdrop_parse_reasons(fmt, &r), 0);
	ck_assert_int_eq(r.n, 3);
	ck_assert_str_eq(tcpdrop_reason_name(&r, 1), "NOT_SPECIFIED");
	ck_assert_str_eq(tcpdrop_reason_name(&r, 27), "TCP_CSUM");
	ck_assert_ptr_null(tcpdrop_reason_name(&r, 3));
	/* no list; an enum the kernel did not turn into numbers */
	ck_assert_int_eq(tcpdrop_parse_reasons("print fmt: \"%p\", REC->a",
					       &r), -ENOENT);
	ck_assert_int_eq(tcpdrop_parse_reasons("__print_symbolic(REC->reason"
					       ", { SKB_DROP_REASON_X, \"X\" "
					       "})", &r), -EINVAL);
	ck_assert_int_eq(tcpdrop_parse_reasons("__print_symbolic(REC->reason"
					       ", { 1, \"X", &r), -EINVAL);
}
END_TEST

static Suite *tcpdrop_suite(void)
{
	Suite *s = suite_create("tcpdrop");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, test_flags);
	tcase_add_test(tc, test_lines);
	tcase_add_test(tc, test_reasons);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(tcpdrop, tcpdrop_suite, NULL)
