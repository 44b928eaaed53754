/* SPDX-License-Identifier: MIT */
/* barebpf tcpdrop: TCP segments the kernel dropped, bcc's columns, with
 * the kernel stack and (skb:kfree_skb) the reason. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"
#include "stream.h"
#include "tcpdrop_out.h"
#include "mods.h"

static const struct tool_usage help = { NULL, "tcpdrop" };

struct tcpdrop_opts {
	int family, json;
	double duration;
};

struct tcpdrop_run {
	const struct tcpdrop_opts *o;
	const struct tcpdrop_settings *s;
	struct tool_ctx *t;
	struct bb_ksyms *ks;
	struct tool_stream st;
};

/* before 5.17: a kfree_skb in a function of TCP's (tcp_v4_rcv ...) */
static int tcp_location(const struct bb_ksyms *ks, uint64_t location)
{
	const struct bb_ksym *k = ks ? ksyms_find(ks, location, NULL) : NULL;

	return k && strstr(k->name, "tcp");
}

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct tcpdrop_run *r = ctx;
	struct tcpdrop_event e;
	uint64_t ips[BB_MAX_STACK];
	const char *reason = NULL;
	char num[16];
	int n;

	(void)cpu;
	if (tool_stream_take(&r->st, &e, sizeof(e), data, size) < 0 ||
	    (r->s->by_location && !tcp_location(r->ks, e.location)))
		return;
	n = e.kstack < 0 ? e.kstack :
		stack_read(tcpdrop_stacks_fd(r->t), e.kstack, ips,
			   BB_MAX_STACK);
	n = stack_add_entry_ret(ips, n, BB_MAX_STACK, e.entry_ret);
	if (r->s->tp && !r->s->by_location) {
		reason = tcpdrop_reason_name(&r->s->reasons, e.reason);
		if (!reason) {
			snprintf(num, sizeof(num), "%u", e.reason);
			reason = num;
		}
	}
	tcpdrop_print(stdout, &e, now_hms(), reason, r->ks, ips, n,
		      r->o->json);
	r->st.printed++;
	tool_output_failed();
}

static int parse_args(struct tool_ctx *t, struct tcpdrop_opts *o, int argc,
		      char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		TOOL_LONGOPT_BTF,
		{ "ipv4", no_argument, NULL, '4' },
		{ "ipv6", no_argument, NULL, '6' },
		{ 0 }
	};
	const struct tool_optv v = { .usage = &help, .json = &o->json,
		.duration = &o->duration };
	int c;

	while ((c = tool_getopt(t, argc, argv, "h46jv", longopts, &v)) > 0) {
		if (opt_family(t, c, &o->family))
			return -EINVAL;
	}
	if (c < 0)
		return c;
	return opt_no_args(t, argc, argv);
}

static int tcpdrop_main(int argc, char **argv)
{
	struct tcpdrop_opts o = { 0 };
	static struct tcpdrop_settings s; /* its reasons: 11 KiB */
	struct tcpdrop_run r = { .st = { "drops", TCPDROP_EMITTED, -1,
					 NULL } };
	struct bb_perfbuf *pb = NULL;
	struct bb_err err = { "" };
	struct tool_ctx t;
	int ret = 1;

	tool_init(&t, "tcpdrop");
	if (parse_args(&t, &o, argc, argv))
		return 1;
	r.o = &o;
	r.s = &s;
	r.t = &t;
	tool_signals();
	if (ksyms_load(&r.ks, "/proc/kallsyms", &err) < 0) {
		tool_error(&t, "%s", err.msg);
		goto out;
	}
	s.family = o.family;
	s.on_event = on_event;
	s.ctx = &r;
	if (tcpdrop_start(&t, &s, &pb) < 0)
		goto out;
	tool_tracing(&t, o.json ? stderr : stdout,
		     "Tracing TCP drops through %s%s... Hit Ctrl-C to end\n",
		     !s.tp ? "a kprobe on " : "", !s.tp ? s.kfunc :
		     s.by_location ? "skb:kfree_skb in tcp functions" :
		     "skb:kfree_skb");
	if (!o.json)
		tcpdrop_print_header(stdout, s.tp && !s.by_location);
	fflush(stdout);
	tool_stream_run(&t, &r.st, pb, o.duration);
	ret = 0;
out:
	perfbuf_close(pb);
	tool_cleanup(&t);
	ksyms_free(r.ks);
	return ret;
}

const struct tool tool_tcpdrop = {
	"tcpdrop", tcpdrop_main,
	"TCP drops with the kernel stack and the reason (a kprobe on "
	"tcp_drop, or skb:kfree_skb)"
};
