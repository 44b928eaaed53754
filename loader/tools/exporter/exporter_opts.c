/* SPDX-License-Identifier: MIT */
/* barebpf exporter's options: parsing, their checks at start, and what is
 * said of the listening address (exporter.c runs the rest). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "exporter.h"

static const struct tool_usage help = { NULL, "exporter" };

/* Create and remove a file in dir as prom_textfile_write would. */
static int textfile_try(const char *dir)
{
	char path[4096];
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/.%s.%d.try", dir,
			     EXP_TEXTFILE, (int)getpid()) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0644);
	if (fd < 0)
		return -errno;
	close(fd);
	unlink(path);
	return 0;
}

/* "a,b,c" or "all" into a mask of exp_collectors; -EINVAL said */
static int parse_collectors(struct tool_ctx *t, const char *list,
			    unsigned *mask)
{
	const char *p = list;
	int i;

	if (!strcmp(list, "all")) {
		*mask = (1u << EXP_NCOLLECTORS) - 1;
		return 0;
	}
	*mask = 0;
	while (*p) {
		size_t n = strcspn(p, ",");

		for (i = 0; i < EXP_NCOLLECTORS; i++)
			if (strlen(exp_collectors[i].name) == n &&
			    !strncmp(exp_collectors[i].name, p, n))
				break;
		if (i == EXP_NCOLLECTORS)
			return tool_fail(t, -EINVAL, "--collectors '%s': no "
					 "collector '%.*s'; the collectors: "
					 "biolatency, qenter, freeze, slowbio, "
					 "runqlat, hardirqs, pagecache, fs, tcp, or "
					 "all",
					 list, (int)n, p);
		*mask |= 1u << i;
		p += n;
		if (*p == ',')
			p++;
	}
	if (!*mask)
		return tool_fail(t, -EINVAL, "--collectors '%s' names none",
				 list);
	return 0;
}

int exporter_parse_args(struct tool_ctx *t, struct exporter *e, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_BTF,
		{ "listen", required_argument, NULL, 'l' },
		{ "allow", required_argument, NULL, 'a' },
		{ "textfile", required_argument, NULL, 't' },
		{ "interval", required_argument, NULL, 'i' },
		{ "slow-us", required_argument, NULL, TOOL_OPT_FIRST_OWN },
		{ "no-kprobes", no_argument, NULL, TOOL_OPT_FIRST_OWN + 1 },
		{ "collectors", required_argument, NULL, 'c' },
		{ 0 }
	};
	struct exp_opts *o = &e->o;
	struct sockaddr_storage ss;
	const char *why;
	socklen_t len;
	struct stat st;
	int c, ret;

	o->interval = EXP_INTERVAL;
	o->slow_us = EXP_SLOW_US;
	o->collectors = (1u << EXP_NDEFAULT) - 1;
	while ((c = getopt_long(argc, argv, "hl:a:t:i:c:v", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'l': o->listen = optarg; break;
		case 'a':
			if (o->nallow == EXP_MAX_ALLOW)
				return tool_fail(t, -EINVAL, "at most %d --allow",
						 EXP_MAX_ALLOW);
			if (httpd_parse_allow(optarg, &o->allow[o->nallow],
					      &why) < 0)
				return tool_fail(t, -EINVAL, "--allow '%s': %s",
						 optarg, why);
			o->nallow++;
			break;
		case 't': o->textfile = optarg; break;
		case 'i':
			if (opt_seconds(t, "--interval", optarg, &o->interval))
				return 1;
			if (o->interval > EXP_INTERVAL_MAX)
				return tool_fail(t, -EINVAL, "--interval %s: at "
						 "most %.0f seconds (a day)",
						 optarg, EXP_INTERVAL_MAX);
			break;
		case TOOL_OPT_FIRST_OWN:
			if (parse_ulong(optarg, &o->slow_us) < 0 || !o->slow_us ||
			    o->slow_us > 3600000000UL)
				return tool_fail(t, -EINVAL,
						 "--slow-us needs a number of "
						 "microseconds from 1 to "
						 "3600000000, not '%s'",
						 optarg);
			break;
		case TOOL_OPT_FIRST_OWN + 1: o->no_kprobes = 1; break;
		case 'c':
			if (parse_collectors(t, optarg, &o->collectors) < 0)
				return 1;
			break;
		default:
			if (tool_opt(t, c, &help, NULL, &o->duration))
				return 1;
			break;
		}
	}
	if (opt_no_args(t, argc, argv))
		return 1;
	/* serve() waits in int milliseconds until the end */
	if (o->duration > EXP_DURATION_MAX)
		return tool_fail(t, -EINVAL, "--duration: at most %.0f seconds "
				 "(24 days); without it, the exporter runs "
				 "until stopped", EXP_DURATION_MAX);
	if (!o->listen && !o->textfile) {
		static char dflt[32];

		snprintf(dflt, sizeof(dflt), "127.0.0.1:%d",
			 HTTPD_DEFAULT_PORT);
		o->listen = dflt;
	}
	if (o->listen && httpd_parse_listen(o->listen, &ss, &len, &why) < 0)
		return tool_fail(t, -EINVAL,
				 "--listen '%s': %s", o->listen, why);
	if (o->textfile && (stat(o->textfile, &st) < 0 ||
			    !S_ISDIR(st.st_mode)))
		return tool_fail(t, -EINVAL,
				 "--textfile '%s' is not a directory: give "
				 "the directory node_exporter reads "
				 "(--collector.textfile.directory)",
				 o->textfile);
	if (o->textfile && access(o->textfile, W_OK) < 0)
		return tool_fail(t, -EINVAL,
				 "--textfile '%s': %s: barebpf.prom cannot "
				 "be written there", o->textfile,
				 strerror(errno));
	/* root passes access(), yet /proc or a read-only mount refuse the
	 * file: find out now, not in a warning every interval */
	if (o->textfile && (ret = textfile_try(o->textfile)) < 0)
		return tool_fail(t, -EINVAL,
				 "--textfile '%s': %s: barebpf.prom cannot "
				 "be written there", o->textfile,
				 strerror(-ret));
	if (o->nallow && !o->listen)
		return tool_fail(t, -EINVAL,
				 "--allow is for the HTTP listener: give "
				 "--listen too");
	return 0;
}

/*
 * The metrics name tasks (the last freezer's comm) and the kernel release:
 * listening beyond loopback with no --allow serves them to anyone who can
 * reach the port. Said, not refused: a remote Prometheus is a normal
 * setup, behind a firewall of its own.
 */
void exporter_listen_warn(struct tool_ctx *t, const struct exp_opts *o)
{
	struct sockaddr_storage ss;
	socklen_t len;

	if (httpd_parse_listen(o->listen, &ss, &len, NULL) < 0 ||
	    httpd_is_loopback(&ss))
		return;
	if (!o->nallow)
		tool_error(t, "warning: listening on %s, beyond loopback, "
			   "and any client that reaches the port may read "
			   "the metrics (task names, the kernel release): "
			   "restrict it with --allow ADDR[/PREFIX], or use "
			   "--textfile and no port", o->listen);
	else if (t->verbose)
		fprintf(stderr, "listening on %s for %d allowed address%s\n",
			o->listen, o->nallow, o->nallow == 1 ? "" : "es");
}

/* A URL to the metrics that a browser or curl on this host can open:
 * for a wildcard, loopback (not http://:19435/metrics); otherwise the
 * address as given. */
void exporter_listen_url(const char *listen, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl;

	if (httpd_parse_listen(listen, &ss, &sl, NULL) == 0 &&
	    ((ss.ss_family == AF_INET &&
	      ((struct sockaddr_in *)&ss)->sin_addr.s_addr == INADDR_ANY) ||
	     (ss.ss_family == AF_INET6 &&
	      IN6_IS_ADDR_UNSPECIFIED(&((struct sockaddr_in6 *)&ss)->sin6_addr))))
		httpd_url(&ss, buf, len);
	else
		snprintf(buf, len, "http://%s/metrics", listen);
}
