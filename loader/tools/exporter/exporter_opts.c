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

static const char usage[] =
"usage: barebpf exporter [-h] [--listen ADDR:PORT] [--allow ADDR[/PREFIX]]\n"
"                        [--textfile DIR]\n"
"                        [--interval SECONDS] [--slow-us US] [--no-kprobes]\n"
"                        [--collectors LIST] [--duration SECONDS]\n"
"                        [--btf FILE] [-v]\n"
"\n"
"Export block-layer latency, queue freezes and the waits they cause (and\n"
"with --collectors run-queue latency, hard-IRQ time, page-cache counts,\n"
"file-system operation latency, TCP retransmits and resets by local port)\n"
"as Prometheus metrics: over HTTP (GET /metrics) and/or as a file for\n"
"node_exporter's textfile collector. The probes stay attached; every\n"
"interval the maps are read (never cleared: counters grow for the whole\n"
"run) and the metrics are rendered anew, every disk and operation from\n"
"0 (a disk that appears, from the next interval).\n"
"\n"
"metrics (labels):\n"
"  barebpf_bio_latency_seconds (disk, op)   histogram, issue to completion\n"
"                                            (op: read write discard flush\n"
"                                            other); tracepoints\n"
"  barebpf_queue_enter_wait_seconds (disk)  histogram, time bios wait to\n"
"                                            enter the queue; kprobes\n"
"  barebpf_queue_freezes_total (disk)       blk-mq queue freezes; kprobes\n"
"  barebpf_queue_frozen_seconds_total (disk)  time frozen; kprobes\n"
"  barebpf_queue_last_freezer_info (disk, comm, attr)  who froze it last,\n"
"                                            writing which queue/ file\n"
"  barebpf_slow_bio_submissions_total (disk)  bio submissions slower than\n"
"                                            --slow-us; kprobes\n"
"  barebpf_collector_enabled, barebpf_probes_attached,\n"
"  barebpf_kretprobe_misses_total, barebpf_events_lost_total,\n"
"  barebpf_bpf_prog_skips_total (6.7+), barebpf_http_*, barebpf_build_info\n"
"Buckets are the log2 slots of integer microseconds: le is the largest\n"
"value a slot holds, (2^(i+1) - 1) us, up to 134 s.\n"
"\n"
"options:\n"
"  -h, --help            show this help message and exit\n"
"  -l, --listen ADDR:PORT  serve GET /metrics here (default 127.0.0.1:19435\n"
"                        unless --textfile alone is given; :PORT for every\n"
"                        IPv4 interface, [::]:PORT for IPv6 too)\n"
"  -a, --allow ADDR[/PREFIX]  serve only these clients (repeatable; e.g.\n"
"                        10.0.0.7 or 192.168.1.0/24): others are closed\n"
"                        unanswered. The metrics name tasks and the kernel\n"
"                        release: beyond loopback, restrict who scrapes\n"
"  -t, --textfile DIR    write DIR/barebpf.prom every interval (a temporary\n"
"                        file renamed over it: never a part); removed at exit\n"
"  -i, --interval SECONDS  how often the metrics are rendered (default 5,\n"
"                        at most 86400)\n"
"      --slow-us US      slow bio submission threshold (default 10000)\n"
"      --no-kprobes      tracepoint collectors only\n"
"  -c, --collectors LIST  the collectors to run, by name, comma-separated, or\n"
"                        all (default: biolatency,qenter,freeze,slowbio):\n"
"                        biolatency qenter freeze slowbio (above), and\n"
"                        runqlat   barebpf_runqueue_latency_seconds\n"
"                                  histogram, every CPU; tracepoints\n"
"                        hardirqs  barebpf_hardirq_seconds_total (irq)\n"
"                                  counter: the names of /proc/interrupts\n"
"                                  from the start, new ones as they come,\n"
"                                  256 at most (then irq=\"_other\");\n"
"                                  tracepoints\n"
"                        pagecache barebpf_pagecache_accesses_total,\n"
"                                  _misses_total, _dirtied_total: bcc's\n"
"                                  cachestat counts (hits = accesses -\n"
"                                  misses); kprobes\n"
"                        fs        barebpf_fs_operation_latency_seconds\n"
"                                  (fs, op) histogram: fsdist's, each of\n"
"                                  ext4 xfs btrfs nfs f2fs this kernel has\n"
"                                  x read write open fsync, from 0; a type\n"
"                                  is traced through BTF or, without, a\n"
"                                  mount of it (as fsdist); kprobes\n"
"                        tcp       barebpf_tcp_retransmits_total (port),\n"
"                                  barebpf_tcp_resets_total (port, dir:\n"
"                                  sent received) counters by local port:\n"
"                                  the listening ports (/proc/net/tcp, tcp6)\n"
"                                  at 0 from the start, new ones as they\n"
"                                  listen, 64 at most, the rest\n"
"                                  port=\"_other\"; tracepoints (4.15+),\n"
"                                  else kprobes; resets sent: kprobes\n"
"                                  before 6.10 where they can (closed\n"
"                                  ports too)\n"
"      --duration SECONDS  exit after this many seconds\n"
"      --kern-version V  override the detected kernel version (a.b.c)\n"
"      --btf FILE        the kernel's BTF, for a kernel without\n"
"                        /sys/kernel/btf/vmlinux (fs, tcp's kprobes)\n"
"  -v, --verbose         say what was detected and attached\n"
"\n"
"examples:\n"
"  barebpf exporter                    # http://127.0.0.1:19435/metrics\n"
"  barebpf exporter --listen :19435 --allow 10.0.0.7\n"
"                                      # every interface, for a remote\n"
"                                      # Prometheus at 10.0.0.7 only\n"
"  barebpf exporter --textfile /var/lib/prometheus/node-exporter\n"
"                                      # for node_exporter's textfile\n"
"                                      # collector, no HTTP\n"
"  barebpf exporter --no-kprobes -i 15 # latency only, every 15 s\n"
"  barebpf exporter -c biolatency,runqlat,hardirqs\n"
"                                      # and the scheduler's view\n"
"  barebpf exporter -c biolatency,fs,pagecache\n"
"                                      # and the file systems' latency\n"
"  barebpf exporter -c tcp             # TCP retransmits and resets of\n"
"                                      # the listening services\n";
static const struct tool_usage help = { NULL, usage };

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
