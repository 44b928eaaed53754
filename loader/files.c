/* SPDX-License-Identifier: MIT */
/* Reading whole files (procfs, sysfs, tracefs: sizes they do not tell). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "barebpf.h"

int bb_read_fd(int fd, char **bufp)
{
	size_t size = 4096, len = 0;
	char *buf = NULL, first[4096];

	*bufp = NULL;
	/* Most files are small (a tracepoint's format, an id): read on the
	 * stack, then one allocation of the size (musl maps and unmaps a
	 * 4 KiB buffer's group each time, 0.1 ms at start per file). */
	for (;;) {
		ssize_t n = read(fd, first + len, sizeof(first) - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		len += n;
		if (n == 0 || len == sizeof(first) - 1)
			break;
	}
	if (len < sizeof(first) - 1) {
		buf = malloc(len + 1);
		if (!buf)
			return -ENOMEM;
		memcpy(buf, first, len);
		buf[len] = 0;
		*bufp = buf;
		return (int)len;
	}
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, first, len);
	/* Pseudo files have no size: read until EOF, growing the buffer. */
	for (;;) {
		ssize_t n;

		if (!buf || len + 1 >= size) {
			char *nbuf;

			if (buf)
				size *= 2;
			nbuf = realloc(buf, size);
			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, size - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno;

			free(buf);
			return ret;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = 0;
	*bufp = buf;
	return len > 0x7fffffff ? 0x7fffffff : (int)len;
}

int bb_read_file(const char *path, char **bufp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	*bufp = NULL;
	if (fd < 0)
		return -errno;
	ret = bb_read_fd(fd, bufp);
	close(fd);
	return ret;
}

int bb_read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return n;
}
