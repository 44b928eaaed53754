/* SPDX-License-Identifier: MIT */
/*
 * tcpload: the loads of the network rows of make bench (bench/tools.sh).
 *
 *   tcpload conn N      N loopback IPv4 sessions, one after another: connect,
 *                       100 bytes each way, close (tcplife's events: about
 *                       ten state changes each); prints sessions per second
 *   tcpload retrans N   in a network namespace of its own (lo up), N
 *                       connections whose receiver drops every packet (a
 *                       socket filter), one send each, 3 s of retransmits,
 *                       then reset; prints the namespace's RetransSegs delta
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/filter.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int listener(struct sockaddr_in *sa)
{
	socklen_t len = sizeof(*sa);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || bind(l, (struct sockaddr *)sa, sizeof(*sa)) < 0 ||
	    listen(l, 1024) < 0 ||
	    getsockname(l, (struct sockaddr *)sa, &len) < 0)
		die("listen");
	return l;
}

static void pair(int l, const struct sockaddr_in *sa, int *c, int *a)
{
	*c = socket(AF_INET, SOCK_STREAM, 0);
	if (*c < 0 || connect(*c, (const struct sockaddr *)sa, sizeof(*sa)) < 0)
		die("connect");
	*a = accept(l, NULL, NULL);
	if (*a < 0)
		die("accept");
}

static unsigned long long retrans_segs(void)
{
	char head[2048] = "", line[2048], *h, *v, *hs, *vs;
	unsigned long long n = 0;
	FILE *f = fopen("/proc/net/snmp", "r");

	if (!f)
		die("/proc/net/snmp");
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Tcp:", 4))
			continue;
		if (!head[0]) {
			strcpy(head, line);
			continue;
		}
		for (h = strtok_r(head, " \n", &hs), v = strtok_r(line, " \n", &vs);
		     h && v; h = strtok_r(NULL, " \n", &hs),
		     v = strtok_r(NULL, " \n", &vs))
			if (!strcmp(h, "RetransSegs"))
				n = strtoull(v, NULL, 10);
		break;
	}
	fclose(f);
	return n;
}

static void conns(long n)
{
	struct sockaddr_in sa;
	struct timespec t0, t1;
	char buf[100] = { 0 };
	int l = listener(&sa), c, a;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		pair(l, &sa, &c, &a);
		if (write(c, buf, sizeof(buf)) != sizeof(buf) ||
		    read(a, buf, sizeof(buf)) <= 0 ||
		    write(a, buf, sizeof(buf)) != sizeof(buf) ||
		    read(c, buf, sizeof(buf)) <= 0)
			die("session");
		close(c);
		close(a);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.0f\n", n / (t1.tv_sec - t0.tv_sec +
			      (t1.tv_nsec - t0.tv_nsec) / 1e9));
}

static void retrans(long n)
{
	struct sock_filter drop = BPF_STMT(BPF_RET | BPF_K, 0);
	struct sock_fprog prog = { 1, &drop };
	struct linger lg = { 1, 0 };
	struct ifreq ifr = { 0 };
	struct sockaddr_in sa;
	unsigned long long r0;
	int l, s, *c, *a;
	long i;

	if (unshare(CLONE_NEWNET) < 0)
		die("unshare(CLONE_NEWNET)");
	s = socket(AF_INET, SOCK_DGRAM, 0);
	strcpy(ifr.ifr_name, "lo");
	ifr.ifr_flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
	if (s < 0 || ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		die("lo up");
	close(s);
	c = calloc(n, sizeof(*c));
	a = calloc(n, sizeof(*a));
	if (!c || !a)
		die("calloc");
	l = listener(&sa);
	for (i = 0; i < n; i++) {
		pair(l, &sa, &c[i], &a[i]);
		if (setsockopt(a[i], SOL_SOCKET, SO_ATTACH_FILTER, &prog,
			       sizeof(prog)) < 0)
			die("SO_ATTACH_FILTER");
	}
	r0 = retrans_segs();
	for (i = 0; i < n; i++)
		if (send(c[i], "retransmit me", 13, 0) != 13)
			die("send");
	sleep(3);
	printf("%llu\n", retrans_segs() - r0);
	for (i = 0; i < n; i++) { /* reset: no FIN to retransmit */
		setsockopt(c[i], SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		setsockopt(a[i], SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(c[i]);
		close(a[i]);
	}
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (argc != 3 || n <= 0 ||
	    (strcmp(argv[1], "conn") && strcmp(argv[1], "retrans"))) {
		fprintf(stderr, "usage: tcpload conn|retrans N\n");
		return 2;
	}
	if (!strcmp(argv[1], "conn"))
		conns(n);
	else
		retrans(n);
	return 0;
}
