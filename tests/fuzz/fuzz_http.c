/* SPDX-License-Identifier: MIT */
/*
 * The exporter's HTTP request parser (loader/tools/exporter/httpd.c) on
 * any bytes a client can send, whole and cut where the server's reads may
 * cut them: the server parses again after each read, so a verdict on a
 * prefix must be the verdict on the whole. Also the --listen address
 * parser.
 */
#include <sys/socket.h>
#include "fuzz.h"
#include "httpd.h"

static int known(int status)
{
	return status == 200 || status == 400 || status == 404 ||
	       status == 405 || status == 431 || status == 505;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct httpd_req whole, part;
	struct sockaddr_storage ss;
	socklen_t len;
	size_t cut;
	int r, rp;
	char *s;

	r = httpd_parse(buf, size, &whole);
	FUZZ_ASSERT(r == 0 || r == 1);
	if (r) {
		FUZZ_ASSERT(known(whole.status));
		FUZZ_ASSERT(whole.status != 200 ||
			    whole.route != HTTPD_ROUTE_NONE);
	} else {
		/* wanting more is only allowed below the limit */
		FUZZ_ASSERT(size < HTTPD_MAX_HEAD);
	}
	/* a cut chosen by the input's first byte, and the half */
	for (cut = size ? data[0] % (size + 1) : 0;; cut = size / 2) {
		rp = httpd_parse(buf, cut, &part);
		if (rp) {
			FUZZ_ASSERT(r);
			FUZZ_ASSERT(part.status == whole.status);
			FUZZ_ASSERT(part.route == whole.route);
			FUZZ_ASSERT(part.head == whole.head);
		}
		if (cut == size / 2)
			break;
	}
	s = fuzz_str(data, size < 128 ? size : 128);
	if (httpd_parse_listen(s, &ss, &len, NULL) == 0)
		FUZZ_ASSERT(len <= sizeof(ss) &&
			    (ss.ss_family == AF_INET || ss.ss_family == AF_INET6));
	free(s);
	return 0;
}
