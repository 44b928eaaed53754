/* SPDX-License-Identifier: MIT */
/* See util.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "bbtest.h"
#include "barebpf.h"
#include "util.h"
#include "kernel.h"

const char *barebpf(void)
{
	const char *p = getenv("BAREBPF");

	return p ? p : BB_BUILD_DIR "/barebpf";
}

void spawn(struct proc *p, char *const argv[])
{
	int o[2], e[2];

	ck_assert_int_eq(pipe(o), 0);
	ck_assert_int_eq(pipe(e), 0);
	p->pid = fork();
	ck_assert_int_ge(p->pid, 0);
	if (!p->pid) {
		dup2(o[1], 1);
		dup2(e[1], 2);
		close(o[0]);
		close(e[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	p->out = o[0];
	p->err = e[0];
}

size_t read_until(int fd, char *buf, size_t len, const char *until,
			 int timeout_ms)
{
	size_t n = 0;

	buf[0] = 0;
	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		ssize_t r;

		if (until && strstr(buf, until))
			break;
		if (poll(&pfd, 1, timeout_ms) <= 0)
			break;
		r = read(fd, buf + n, len - 1 - n);
		if (r <= 0)
			break;
		n += r;
		buf[n] = 0;
	}
	return n;
}

void read_rest(int fd, int timeout_ms)
{
	char scratch[4096];

	while (read_until(fd, scratch, sizeof(scratch), NULL, timeout_ms))
		;
}

void read_more(int fd, char *buf, size_t len, size_t *n, const char *until,
	       int quiet_ms)
{
	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		ssize_t r;

		buf[*n] = 0;
		if (until && strstr(buf, until))
			return;
		if (*n + 1 >= len || poll(&pfd, 1, quiet_ms) <= 0)
			return;
		r = read(fd, buf + *n, len - 1 - *n);
		if (r <= 0)
			return;
		*n += r;
	}
}

size_t trace_started(struct proc *p, char *const argv[], char *out,
		     size_t len)
{
	static const char line_end[] = "Hit Ctrl-C to end.\n";
	char first[4096];
	const char *rest;
	size_t n;
	int json = 0, i;

	for (i = 0; argv[i]; i++)
		json |= !strcmp(argv[i], "-j") || !strcmp(argv[i], "--json");
	out[0] = 0;
	if (json) {
		read_until(p->err, first, sizeof(first), "Tracing", 30000);
		ck_assert_msg(strstr(first, "Tracing"), "trace did not start: "
			      "%s", first);
		return 0;
	}
	/* nothing is traced yet: the header's one write ends what comes */
	read_until(p->out, first, sizeof(first), "FUNC", 30000);
	rest = strstr(first, line_end);
	ck_assert_msg(!strncmp(first, "Tracing", 7) && rest &&
		      strstr(first, "FUNC"), "trace did not start: %s", first);
	rest += sizeof(line_end) - 1;
	n = strlen(rest);
	ck_assert_uint_lt(n, len);
	memcpy(out, rest, n + 1);
	return n;
}

int wait_exit(pid_t pid)
{
	int st;

	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int run(char *const argv[], char *out, size_t olen, char *err,
	       size_t elen)
{
	struct proc p;

	spawn(&p, argv);
	/* A tool that prints more than the caller keeps (biosnoop while the
	 * host does other I/O) must not die of SIGPIPE: read the rest. */
	if (read_until(p.out, out, olen, NULL, 30000) == olen - 1)
		read_rest(p.out, 30000);
	read_until(p.err, err, elen, NULL, 30000);
	close(p.out);
	close(p.err);
	return wait_exit(p.pid);
}

int sh(const char *cmd, char *out, size_t len)
{
	FILE *f = popen(cmd, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	while (n && out[n - 1] == '\n')
		out[--n] = 0;
	return pclose(f);
}

unsigned long long completed(const char *dev)
{
	char path[128];
	unsigned long long f[11] = { 0 };
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", dev);
	fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_ge(fscanf(fp, "%llu %llu %llu %llu %llu %llu %llu %llu",
				&f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6],
				&f[7]), 8);
	fclose(fp);
	return f[0] + f[4];
}

const char *need_root_and_tools(void)
{
	static char why[256];
	char out[256];

	if (geteuid())
		return "needs root (bpf(), tracefs, loop devices)";
	if (access(barebpf(), X_OK))
		return "build/barebpf is not built (run make first)";
	if (sh("command -v losetup", out, sizeof(out)) || !out[0])
		return "losetup not found (util-linux)";
	if (bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, 0, "t") < 0) {
		snprintf(why, sizeof(why), "bpf() does not work here");
		return why;
	}
	return NULL;
}

char loopdev[64];
static char backing[32];

void loop_setup(void)
{
	char cmd[256], out[64];
	int fd;

	/* mkstemp rewrites its template: a fresh one for every device */
	strcpy(backing, "/tmp/barebpf-test-XXXXXX");
	fd = mkstemp(backing);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 64 << 20), 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s", backing);
	ck_assert_int_eq(sh(cmd, out, sizeof(out)), 0);
	ck_assert_msg(!strncmp(out, "/dev/loop", 9), "losetup said '%s'", out);
	snprintf(loopdev, sizeof(loopdev), "%s", out + 5);
	/* let udev's probe of the new device (if any) finish */
	(void)!system("command -v udevadm >/dev/null && udevadm settle 2>/dev/null");
}

void loop_teardown(void)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "losetup -d /dev/%s", loopdev);
	(void)!system(cmd);
	unlink(backing);
}


double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int free_port(void)
{
	struct sockaddr_in a = { 0 };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	ck_assert_int_ge(fd, 0);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

int tcp_connect(int port, int nonblock)
{
	struct sockaddr_in a = { 0 };
	int fd = socket(AF_INET, SOCK_STREAM | (nonblock ? SOCK_NONBLOCK : 0),
			0);

	ck_assert_int_ge(fd, 0);
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0 &&
	    errno != EINPROGRESS) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	return fd;
}

int http_request(int port, const char *req, size_t len, struct http_reply *r,
		 double timeout)
{
	static char buf[4 << 20];
	double t0 = mono();
	size_t got = 0;
	const char *end, *cl;
	int fd = tcp_connect(port, 1);

	memset(r, 0, sizeof(*r));
	r->body = "";
	if (fd < 0)
		return fd;
	while (len) {
		struct pollfd p = { fd, POLLOUT, 0 };
		double left = timeout - (mono() - t0);
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			goto timeout;
		n = send(fd, req, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EAGAIN)
			continue;
		if (n < 0)
			break; /* the server may answer before reading it all */
		req += n;
		len -= n;
	}
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		double left = timeout - (mono() - t0);
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			goto timeout;
		n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);
		if (n < 0 && errno == EAGAIN)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	r->secs = mono() - t0;
	buf[got] = 0;
	if (sscanf(buf, "HTTP/1.%*d %d ", &r->status) != 1)
		return -EPROTO;
	end = strstr(buf, "\r\n\r\n");
	if (!end)
		return -EPROTO;
	snprintf(r->head, sizeof(r->head), "%.*s", (int)(end - buf), buf);
	cl = strstr(r->head, "Content-Length: ");
	r->content_length = cl ? atol(cl + 16) : -1;
	r->body = end + 4;
	r->body_len = got - (end + 4 - buf);
	return 0;
timeout:
	close(fd);
	return -ETIMEDOUT;
}

int http_get(int port, const char *path, struct http_reply *r,
	     double timeout)
{
	char req[512];
	int ret;

	/* 1.0: an answer delimited by the close, never chunked (Go) */
	snprintf(req, sizeof(req), "GET %s HTTP/1.0\r\nHost: 127.0.0.1:%d"
		 "\r\nConnection: close\r\n\r\n", path, port);
	ret = http_request(port, req, strlen(req), r, timeout);
	return ret < 0 ? ret : r->status;
}

/* trace and trace_stream's suites: root, barebpf built, and the
 * syscalls:sys_enter_getppid tracepoint their loops call. */
const char *need_root_and_getppid(void)
{
	char tfs[256];
	char path[300];

	if (geteuid())
		return "needs root (bpf(), tracefs)";
	if (access(barebpf(), X_OK))
		return "build/barebpf is not built (run make first)";
	if (tracefs_find(tfs, sizeof(tfs), NULL) < 0)
		return "no tracefs";
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_getppid",
		 tfs);
	if (access(path, F_OK))
		return "no syscalls:sys_enter_getppid tracepoint "
		       "(CONFIG_FTRACE_SYSCALLS)";
	return NULL;
}
