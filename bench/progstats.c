/* SPDX-License-Identifier: MIT */
/*
 * progstats: the kernel's own accounting of the BPF programs a process
 * holds (make bench: the "ns per run" rows, and the BPF share of the
 * profile row).
 *
 *   progstats PID
 *
 * Prints "ID NAME RUN_TIME_NS RUN_CNT" for each program PID has a
 * descriptor of, once per program. The ids come from /proc/PID/fdinfo
 * (prog_id, 4.16+), the figures from BPF_OBJ_GET_INFO_BY_FD on a
 * descriptor of our own (BPF_PROG_GET_FD_BY_ID, 4.13+): the kernel counts
 * run_time_ns and run_cnt (5.1+) only while kernel.bpf_stats_enabled is 1,
 * which the bench sets. Programs are found by the process that holds them,
 * not by name, so that other programs on the machine are never counted.
 * Needs root. Exits 1 if PID holds none.
 */
#include <dirent.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

/* prog_id of /proc/PID/fdinfo/FD, or 0 if FD is not a program */
static unsigned int fd_prog_id(const char *pid, const char *fd)
{
	char path[320], line[256];
	unsigned int id = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s", pid, fd);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "prog_id: %u", &id) == 1)
			break;
	fclose(f);
	return id;
}

static int print_prog(unsigned int id)
{
	struct bpf_prog_info info;
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_id = id;
	fd = sys_bpf(BPF_PROG_GET_FD_BY_ID, &a);
	if (fd < 0)
		return -1;
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = fd;
	a.info.info_len = sizeof(info);
	a.info.info = (unsigned long)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0) {
		close(fd);
		return -1;
	}
	close(fd);
	printf("%u %s %llu %llu\n", id, info.name[0] ? info.name : "-",
	       (unsigned long long)info.run_time_ns,
	       (unsigned long long)info.run_cnt);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int ids[4096], id;
	int n = 0, i, printed = 0;
	char path[64];
	struct dirent *e;
	DIR *d;

	if (argc != 2) {
		fprintf(stderr, "usage: progstats PID\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/%s/fd", argv[1]);
	d = opendir(path);
	if (!d) {
		perror(path);
		return 1;
	}
	while ((e = readdir(d)) && n < 4096) {
		if (e->d_name[0] == '.' || !(id = fd_prog_id(argv[1], e->d_name)))
			continue;
		for (i = 0; i < n && ids[i] != id; i++)
			;
		if (i == n)
			ids[n++] = id;
	}
	closedir(d);
	for (i = 0; i < n; i++)
		printed += print_prog(ids[i]) == 0;
	return printed ? 0 : 1;
}
