/* SPDX-License-Identifier: MIT */
/*
 * What the integration tests of the tools share: running barebpf as a user
 * would (spawned, its output read through pipes), a loop device to do I/O
 * on, and the kernel's own I/O counters to check the tools against.
 * Failures are Check assertions: call these from tests only.
 */
#ifndef BAREBPF_TEST_UTIL_H
#define BAREBPF_TEST_UTIL_H

#include <stddef.h>
#include <sys/types.h>

/* build/barebpf, or $BAREBPF */
const char *barebpf(void);

struct proc {
	pid_t pid;
	int out, err; /* read ends */
};

/* Start argv (argv[0] a path) with stdout and stderr on pipes. */
void spawn(struct proc *p, char *const argv[]);
/* Read fd until EOF (or until `until` appears, if not NULL) into buf. */
size_t read_until(int fd, char *buf, size_t len, const char *until,
		  int timeout_ms);
/* Read fd to its end (or timeout_ms of silence), keeping nothing. */
void read_rest(int fd, int timeout_ms);
/* Append what fd has to buf (at *n) until `until` appears in it, EOF, or
 * no data for quiet_ms. buf stays NUL-terminated. */
void read_more(int fd, char *buf, size_t len, size_t *n, const char *until,
	       int quiet_ms);
/*
 * Wait until trace (started by spawn with argv) says it is attached: the
 * Tracing line on stdout, with the header after it (the line reaches
 * "FUNC"), or with -j on stderr. What stdout had after the Tracing line
 * (the header) is at the start of out; returns its length.
 */
size_t trace_started(struct proc *p, char *const argv[], char *out,
		     size_t len);
/* Reap pid; its exit status, or 128 + the signal that killed it. */
int wait_exit(pid_t pid);
/* Run to completion; returns the exit status, stdout/stderr in bufs. */
int run(char *const argv[], char *out, size_t olen, char *err, size_t elen);
/* popen: the output, trailing newlines cut, in out; pclose's status. */
int sh(const char *cmd, char *out, size_t len);
/* requests completed (reads + writes) from /sys/block/<dev>/stat */
unsigned long long completed(const char *dev);
/* NULL, or why the tool tests cannot run here */
const char *need_root_and_tools(void);

/* ---- HTTP over loopback (tests of the exporter) ---- */
/* Monotonic seconds. */
double mono(void);
/* A TCP port on 127.0.0.1 that was free a moment ago. */
int free_port(void);
/* A TCP connection to 127.0.0.1:port (non-blocking: connect may be in
 * progress); the fd or -errno. */
int tcp_connect(int port, int nonblock);

struct http_reply {
	int status;
	long content_length;  /* -1 without the field */
	size_t body_len;
	const char *body;     /* NUL-terminated; valid until the next call */
	char head[1024];      /* status line and fields */
	double secs;          /* connect to EOF */
};
/* Send len bytes of req, read the answer until EOF, all within timeout
 * seconds: 0, -ETIMEDOUT, -EPROTO (no HTTP/1.x answer), or -errno. */
int http_request(int port, const char *req, size_t len, struct http_reply *r,
		 double timeout);
/* GET path; the status (or -errno), the body in r. */
int http_get(int port, const char *path, struct http_reply *r,
	     double timeout);

/* A 64 MiB loop device on a file in /tmp: "loopN" in loopdev. */
extern char loopdev[64];
void loop_setup(void);
void loop_teardown(void);

/* NULL, or why trace's suites cannot run (see util.c). */
const char *need_root_and_getppid(void);

#endif
