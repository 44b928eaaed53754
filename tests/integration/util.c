/* SPDX-License-Identifier: MIT */
/* See util.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "barebpf.h"
#include "util.h"

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
	read_until(p.out, out, olen, NULL, 30000);
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

