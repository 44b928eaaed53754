/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include "netfmt.h"

const char *tcp_state_name(int state, char *buf, size_t len)
{
	static const char *const names[] = {
		NULL, "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1",
		"FIN_WAIT2", "TIME_WAIT", "CLOSE", "CLOSE_WAIT", "LAST_ACK",
		"LISTEN", "CLOSING", "NEW_SYN_RECV",
	};

	if (state > 0 && state < (int)(sizeof(names) / sizeof(names[0])))
		return names[state];
	snprintf(buf, len, "%d", state);
	return buf;
}

const char *net_addr_str(int family, const unsigned char *addr, char *buf,
			 size_t len)
{
	int af = family == 2 ? AF_INET : family == 10 ? AF_INET6 : -1;

	if (af < 0 || !inet_ntop(af, addr, buf, len))
		snprintf(buf, len, "?");
	return buf;
}

int net_ip_version(int family)
{
	return family == 2 ? 4 : family == 10 ? 6 : 0;
}
