/* SPDX-License-Identifier: MIT */
/*
 * Which functions this kernel has, for kprobes: available_filter_functions
 * (what ftrace, and so kprobes, can take), or the text symbols of
 * /proc/kallsyms where it cannot be read.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe_internal.h"
#include "kernel.h"

void bb_free_strv(char **v, int n)
{
	int i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * available_filter_functions: one function a line, "name" or
 * "name [module]"; a static function may appear several times. Since 6.5
 * it also lists "__ftrace_invalid_address___<n>" placeholders.
 */
int kprobe_match_text(const char *text, const char *pattern, char ***namesp)
{
	char **names = NULL;
	size_t n = 0, cap = 0, i, out;
	const char *line, *eol;

	*namesp = NULL;
	for (line = text; line && *line; line = eol ? eol + 1 : NULL) {
		char name[256];
		size_t len;

		eol = strchr(line, '\n');
		len = eol ? (size_t)(eol - line) : strlen(line);
		for (i = 0; i < len && line[i] != ' ' && line[i] != '\t'; i++)
			;
		len = i;
		if (len == 0 || len >= sizeof(name))
			continue;
		memcpy(name, line, len);
		name[len] = 0;
		if (!strncmp(name, "__ftrace_invalid_address__", 26) ||
		    fnmatch(pattern, name, 0))
			continue;
		if (n == cap) {
			char **nn;

			cap = cap ? cap * 2 : 64;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				goto err_free;
			names = nn;
		}
		names[n] = strdup(name);
		if (!names[n])
			goto err_free;
		n++;
	}
	if (n == 0) {
		free(names);
		return 0;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 1, out = 1; i < n; i++) {
		if (!strcmp(names[i], names[out - 1]))
			free(names[i]);
		else
			names[out++] = names[i];
	}
	*namesp = names;
	return out;

err_free:
	bb_free_strv(names, n);
	return -ENOMEM;
}

/*
 * Without a readable available_filter_functions, /proc/kallsyms
 * ("addr t name [module]") has the text symbols, which is what kprobes
 * can take. Rewrite it in place into one name a line.
 */
static void kallsyms_to_names(char *text)
{
	char *in = text, *out = text;

	while (*in) {
		char *eol = strchr(in, '\n'), *next;
		char type = 0, *name = NULL;
		size_t len;

		next = eol ? eol + 1 : in + strlen(in);
		if (eol)
			*eol = 0;
		/* addr, type, name */
		in = strchr(in, ' ');
		if (in) {
			type = in[1];
			if (type && in[2] == ' ')
				name = in + 3;
		}
		if (name && (type == 't' || type == 'T')) {
			len = strcspn(name, " \t");
			memmove(out, name, len);
			out += len;
			*out++ = '\n';
		}
		in = next;
	}
	*out = 0;
}

/*
 * The function a line names: "name" or "name [module]" in
 * available_filter_functions, "addr t name [module]" in /proc/kallsyms
 * (text symbols only). Returns its length, 0 for none.
 */
static size_t line_func(const char *line, size_t len, int kallsyms,
			const char **name)
{
	size_t i = 0;

	if (kallsyms) {
		while (i < len && line[i] != ' ')
			i++;
		if (i + 3 > len || (line[i + 1] != 't' && line[i + 1] != 'T') ||
		    line[i + 2] != ' ')
			return 0;
		line += i + 3;
		len -= i + 3;
	}
	for (i = 0; i < len && line[i] != ' ' && line[i] != '\t'; i++)
		;
	*name = line;
	return i;
}

/* Mark the wanted names this line holds; 1 once the first `need` are all
 * found. */
static int funcs_line(const char *line, size_t len, int kallsyms,
		      const char *const *names, int n, int need, char *found)
{
	const char *name;
	size_t nlen = line_func(line, len, kallsyms, &name);
	int i, done = 1;

	for (i = 0; nlen && i < n; i++)
		if (!found[i] && names[i][0] == name[0] &&
		    !strncmp(names[i], name, nlen) && !names[i][nlen])
			found[i] = 1;
	for (i = 0; i < need && done; i++)
		done = found[i];
	return done;
}

int kprobe_funcs_text(const char *text, int kallsyms, const char *const *names,
		      int n, int need, char *found)
{
	const char *line, *eol;
	int i, k = 0;

	memset(found, 0, n);
	for (line = text; line && *line; line = eol ? eol + 1 : NULL) {
		eol = strchr(line, '\n');
		if (funcs_line(line, eol ? (size_t)(eol - line) : strlen(line),
			       kallsyms, names, n, need, found) && need > 0)
			break;
	}
	for (i = 0; i < n; i++)
		k += found[i];
	return k;
}

/* The same on a file, read a piece at a time; stops reading once done. */
static int funcs_fd(int fd, int kallsyms, const char *const *names, int n,
		    int need, char *found)
{
	size_t size = 1 << 16, have = 0;
	char *buf = malloc(size);
	int i, k = 0, done = 0;

	if (!buf)
		return -ENOMEM;
	memset(found, 0, n);
	while (!done) {
		ssize_t r = read(fd, buf + have, size - have);
		size_t start = 0, j;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			k = -errno;
			goto out;
		}
		if (r == 0) {
			if (have)
				funcs_line(buf, have, kallsyms, names, n, need,
					   found);
			break;
		}
		have += r;
		for (j = 0; j < have && !done; j++) {
			if (buf[j] != '\n')
				continue;
			done = funcs_line(buf + start, j - start, kallsyms,
					  names, n, need, found) && need > 0;
			start = j + 1;
		}
		if (start == 0 && have == size)
			start = have; /* a line longer than the buffer: skip */
		memmove(buf, buf + start, have - start);
		have -= start;
	}
	for (i = 0; i < n; i++)
		k += found[i];
out:
	free(buf);
	return k;
}

int kprobe_funcs_find(const char *tracefs, int source,
		      const char *const *names, int n, int need, char *found,
		      struct bb_err *err)
{
	char path[512];
	int fd = -ENOENT, kallsyms = 1, ret;

	if (source == BB_FUNCS_FTRACE && tracefs && *tracefs) {
		snprintf(path, sizeof(path), "%s/available_filter_functions",
			 tracefs);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		fd = fd < 0 ? -errno : fd;
		kallsyms = 0;
	}
	/* ENOENT without DYNAMIC_FTRACE; EPERM seen on a 6.18 without it. */
	if (fd < 0) {
		fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
		fd = fd < 0 ? -errno : fd;
		kallsyms = 1;
	}
	if (fd < 0)
		return bb_fail(err, fd, "cannot read %s/available_filter_"
			       "functions or /proc/kallsyms: %s",
			       tracefs ? tracefs : "tracefs", strerror(-fd));
	ret = funcs_fd(fd, kallsyms, names, n, need, found);
	close(fd);
	if (ret < 0)
		return bb_fail(err, ret, "cannot read %s: %s", kallsyms ?
			       "/proc/kallsyms" : path, strerror(-ret));
	return ret;
}

int kprobe_match(const char *tracefs, const char *pattern, char ***names,
		 struct bb_err *err)
{
	char *text;
	int ret;

	*names = NULL;
	ret = tracefs_read(tracefs, "available_filter_functions", &text);
	/* ENOENT without DYNAMIC_FTRACE; EPERM seen on a 6.18 without it. */
	if (ret < 0) {
		ret = tracefs_read("/proc", "kallsyms", &text);
		if (ret >= 0)
			kallsyms_to_names(text);
	}
	if (ret < 0)
		return bb_fail(err, ret,
			       "cannot read %s/available_filter_functions or "
			       "/proc/kallsyms: %s", tracefs, strerror(-ret));
	ret = kprobe_match_text(text, pattern, names);
	free(text);
	if (ret < 0)
		return bb_fail(err, ret, "out of memory");
	return ret;
}
