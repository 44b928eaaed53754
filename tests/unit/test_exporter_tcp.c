/* SPDX-License-Identifier: MIT */
/* The exporter's tcp collector: the listening ports of /proc/net/tcp and
 * tcp6 (its label values), a sorted set with a cap. */
#include <stdint.h>
#include "bbtest.h"
#include "exporter.h"

START_TEST(test_listen_ports)
{
	/* a listener (0A) on 8080 (1F90) and 22 (0016), an established
	 * connection (01) from 22, a TIME_WAIT (06), a tcp6 listener on
	 * 9100 (238C), 22 again in tcp6 */
	static const char v4[] =
		"  sl  local_address rem_address   st tx_queue rx_queue tr "
		"tm->when retrnsmt   uid  timeout inode\n"
		"   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 "
		"00:00000000 00000000     0        0 1234 1 0 100 0 0 10 0\n"
		"   1: 00000000:0016 00000000:0000 0A 00000000:00000000 "
		"00:00000000 00000000     0        0 1235 1 0 100 0 0 10 0\n"
		"   2: 0100007F:0016 0100007F:D431 01 00000000:00000000 "
		"00:00000000 00000000     0        0 1236 1 0 20 4 30 10 -1\n"
		"   3: 0100007F:C350 0100007F:1F90 06 00000000:00000000 "
		"03:00001770 00000000     0        0 0 3\n";
	static const char v6[] =
		"  sl  local_address                         remote_address"
		"                        st tx_queue rx_queue tr tm->when "
		"retrnsmt   uid  timeout inode\n"
		"   0: 00000000000000000000000000000000:238C "
		"00000000000000000000000000000000:0000 0A 00000000:00000000 "
		"00:00000000 00000000     0        0 99 1 0 100 0 0 10 0\n"
		"   1: 00000000000000000000000000000000:0016 "
		"00000000000000000000000000000000:0000 0A 00000000:00000000 "
		"00:00000000 00000000     0        0 98 1 0 100 0 0 10 0\n";
	uint16_t ports[8];
	int n = exp_tcp_listen_ports(v4, ports, 0, 8);

	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(ports[0], 22);
	ck_assert_int_eq(ports[1], 8080);
	n = exp_tcp_listen_ports(v6, ports, n, 8);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(ports[0], 22);
	ck_assert_int_eq(ports[1], 8080);
	ck_assert_int_eq(ports[2], 9100);
	/* the cap: the first found stays, nothing more comes */
	ck_assert_int_eq(exp_tcp_listen_ports(v6, ports, 0, 1), 1);
	ck_assert_int_eq(ports[0], 9100);
	ck_assert_int_eq(exp_tcp_listen_ports("", ports, 0, 8), 0);
}
END_TEST

START_TEST(test_port_set)
{
	uint16_t p[3];
	int n = 0;

	n = exp_tcp_port_add(p, n, 3, 443);
	n = exp_tcp_port_add(p, n, 3, 80);
	n = exp_tcp_port_add(p, n, 3, 443);
	ck_assert_int_eq(n, 2);
	n = exp_tcp_port_add(p, n, 3, 65535);
	n = exp_tcp_port_add(p, n, 3, 1);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(p[0], 80);
	ck_assert_int_eq(p[1], 443);
	ck_assert_int_eq(p[2], 65535);
}
END_TEST

static Suite *exporter_tcp_suite(void)
{
	Suite *s = suite_create("exporter_tcp");
	TCase *tc = tcase_create("ports");

	tcase_add_test(tc, test_listen_ports);
	tcase_add_test(tc, test_port_set);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(exporter_tcp, exporter_tcp_suite, NULL)
