/* SPDX-License-Identifier: MIT */
/*
 * Programs: what a section name asks for (kprobe/, kretprobe/, ksyscall/,
 * kretsyscall/, uprobe/, uretprobe/, tracepoint/, tp/, perf_event; bpf_load's kprobe/<N>
 * tail-call slots;
 * the kinds barebpf run does not run, named as such), and one program per
 * global function of a program section (libbpf takes several a section;
 * .text holds the functions they call).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "obj_internal.h"
#include "arch.h"

#define ACCEPTED_SECTIONS                                                      \
	"kprobe/<function>, kretprobe/<function>, ksyscall/<syscall>, "        \
	"kretsyscall/<syscall>, uprobe/<path>:<function>, "                    \
	"uretprobe/<path>:<function>, tracepoint/<category>/<name>, "          \
	"perf_event"
#define RUN_ATTACHES                                                           \
	"barebpf run attaches kprobe, kretprobe, ksyscall, uprobe, "           \
	"tracepoint and perf_event programs"

struct sec_kind {
	enum bb_prog_kind kind;
	uint32_t type;
	size_t target_off; /* where the target starts in the name */
	int syscall;
};

static int is_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* How a kprobe target spells a system call: BB_SYSCALL_*. */
static int syscall_spelling(const char *t)
{
	const char *wrap[16];
	int i, n = bb_arch_sys_prefixes(wrap, 16, 1, 0);

	for (i = 0; i < n; i++)
		if (is_prefix(t, wrap[i]) && t[strlen(wrap[i])])
			return BB_SYSCALL_WRAP;
	if ((is_prefix(t, "sys_") || is_prefix(t, "SyS_")) && t[4])
		return BB_SYSCALL_OLD;
	return BB_SYSCALL_NONE;
}

/*
 * The program kind a section name asks for. Returns 1 for a program
 * section, 0 for any other name, -EINVAL for a malformed tracepoint name.
 */
static int section_kind(const char *name, struct sec_kind *k)
{
	static const struct {
		const char *bare;
		enum bb_prog_kind kind;
		uint32_t type;
		int syscall;
	} kinds[] = {
		{ "kprobe", BB_PROG_KPROBE, BPF_PROG_TYPE_KPROBE, 0 },
		{ "kretprobe", BB_PROG_KRETPROBE, BPF_PROG_TYPE_KPROBE, 0 },
		{ "ksyscall", BB_PROG_KPROBE, BPF_PROG_TYPE_KPROBE,
		  BB_SYSCALL_NEW },
		{ "kretsyscall", BB_PROG_KRETPROBE, BPF_PROG_TYPE_KPROBE,
		  BB_SYSCALL_NEW },
		{ "tracepoint", BB_PROG_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT,
		  0 },
		{ "tp", BB_PROG_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT, 0 },
		/* libbpf's uprobe/PATH:FUNC[+OFF], resolved at attach */
		{ "uprobe", BB_PROG_UPROBE, BPF_PROG_TYPE_KPROBE, 0 },
		{ "uretprobe", BB_PROG_URETPROBE, BPF_PROG_TYPE_KPROBE, 0 },
		/* libbpf's and samples/bpf's (no target: run samples every
		 * CPU at -F), and the embedded profile's own */
		{ "perf_event", BB_PROG_PERF_EVENT, BPF_PROG_TYPE_PERF_EVENT,
		  0 },
		{ "bb_perf_event", BB_PROG_PERF_EVENT,
		  BPF_PROG_TYPE_PERF_EVENT, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t n = strlen(kinds[i].bare);
		const char *rest = name + n;

		if (strncmp(name, kinds[i].bare, n) || (*rest && *rest != '/'))
			continue;
		k->kind = kinds[i].kind;
		k->type = kinds[i].type;
		k->target_off = *rest ? n + 1 : n;
		k->syscall = kinds[i].syscall;
		if (k->kind == BB_PROG_PERF_EVENT) {
			if (*rest)
				return 0;
		} else if (k->kind == BB_PROG_TRACEPOINT) {
			const char *slash;

			slash = *rest ? strchr(rest + 1, '/') : NULL;
			if (!slash || slash == rest + 1 || !slash[1] ||
			    strchr(slash + 1, '/'))
				return -EINVAL;
		} else if (k->kind == BB_PROG_UPROBE ||
			   k->kind == BB_PROG_URETPROBE) {
			if (!*rest || !strchr(rest + 1, ':'))
				return -EINVAL;
		} else if (!k->syscall && *rest) {
			k->syscall = syscall_spelling(rest + 1);
		}
		if (k->syscall == BB_SYSCALL_NEW && !*rest)
			return -EINVAL;
		return 1;
	}
	return 0;
}

/*
 * What other loaders put in a section: for the message that says what
 * kind of program barebpf run does not run. Longest prefixes first.
 */
static const char *other_kind(const char *name)
{
	static const struct {
		const char *prefix, *kind;
	} kinds[] = {
		{ "kprobe.multi", "a multi-kprobe (5.18)" },
		{ "kretprobe.multi", "a multi-kretprobe (5.18)" },
		{ "uprobe.multi", "a multi-uprobe (6.6)" },
		{ "uretprobe", "a uretprobe" },
		{ "uprobe", "a uprobe" },
		{ "usdt", "a USDT" },
		{ "raw_tracepoint", "a raw tracepoint" },
		{ "raw_tp", "a raw tracepoint" },
		{ "tp_btf", "a BTF tracepoint" },
		{ "fentry", "an fentry" },
		{ "fexit", "an fexit" },
		{ "fmod_ret", "an fmod_ret" },
		{ "lsm", "an LSM" },
		{ "iter", "an iterator" },
		{ "struct_ops", "a struct_ops" },
		{ "perf_event", "a perf event" },
		{ "socket", "a socket filter" },
		{ "sockops", "a sockops" },
		{ "sk_skb", "an sk_skb" },
		{ "sk_msg", "an sk_msg" },
		{ "sk_lookup", "an sk_lookup" },
		{ "sk_reuseport", "an sk_reuseport" },
		{ "xdp", "an XDP" },
		{ "cgroup", "a cgroup" },
		{ "classifier", "a tc classifier" },
		{ "action", "a tc action" },
		{ "tc", "a tc" },
		{ "lwt_", "a lightweight tunnel" },
		{ "flow_dissector", "a flow dissector" },
		{ "netfilter", "a netfilter" },
		{ "syscall", "a BPF_PROG_TYPE_SYSCALL" },
		{ "freplace", "an freplace" },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (is_prefix(name, kinds[i].prefix))
			return kinds[i].kind;
	return NULL;
}

static int add_prog(struct obj_parse *op, const struct obj_code *c,
		    int func, const struct sec_kind *k)
{
	struct bb_obj *obj = op->obj;
	struct obj_prog_rec *prog = &obj->progs[obj->nprogs];
	const char *target;

	prog->p.fd = -1;
	prog->p.tail_slot = -1;
	prog->func = func;
	if (obj_str_copy(prog->p.section, sizeof(prog->p.section),
			 c->name) < 0)
		return bb_fail(op->err, -EINVAL,
			       "%s: section name '%.64s...' is longer than "
			       "%zu characters", obj->name, c->name,
			       sizeof(prog->p.section) - 1);
	memcpy(prog->p.name, obj->funcs[func].name, sizeof(prog->p.name));
	/* the function alone until obj_relocate links what it calls */
	prog->p.insn_cnt = obj->funcs[func].cnt;
	prog->p.insns = malloc(prog->p.insn_cnt * sizeof(*prog->p.insns));
	if (!prog->p.insns)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	memcpy(prog->p.insns, c->insns + obj->funcs[func].off,
	       prog->p.insn_cnt * sizeof(*prog->p.insns));
	obj->nprogs++; /* from here on obj_close frees it */
	prog->p.kind = k->kind;
	prog->p.prog_type = k->type;
	prog->p.syscall = k->syscall;
	target = prog->p.section + k->target_off;
	prog->p.target = target;
	/* bpf_load: kprobe/<N> is slot N of the program array, for tail
	 * calls; no function is named by digits alone */
	if (k->kind != BB_PROG_TRACEPOINT && !k->syscall &&
	    all_digits(target)) {
		unsigned long slot = strtoul(target, NULL, 10);

		if (strlen(target) > 9)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: tail-call slot %s is "
				       "too large", obj->name, c->name,
				       target);
		prog->p.tail_slot = slot;
		prog->p.target = "";
	}
	return 0;
}

/* A code section that is not .text and not a program section. */
static int refuse_code_section(struct obj_parse *op, const struct obj_code *c)
{
	const struct bb_obj *obj = op->obj;
	const char *fn = c->nfuncs ? obj->funcs[c->first_func].name : NULL;
	const char *kind = other_kind(c->name);

	if (kind)
		return bb_fail(op->err, -EOPNOTSUPP,
			       "%s: section %s is %s program; " RUN_ATTACHES
			       " (%s)", obj->name, c->name, kind,
			       ACCEPTED_SECTIONS);
	return bb_fail(op->err, -EINVAL,
		       "%s: section %s holds code%s%s%s but is not a program "
		       "section (accepted: " ACCEPTED_SECTIONS "; helper "
		       "functions go in .text, i.e. without SEC())",
		       obj->name, c->name, fn ? " (function '" : "",
		       fn ? fn : "", fn ? "')" : "");
}

int obj_read_progs(struct obj_parse *op)
{
	struct bb_obj *obj = op->obj;
	int i, j, ret;

	obj->progs = calloc(obj->nfuncs ? obj->nfuncs : 1,
			    sizeof(*obj->progs));
	if (!obj->progs)
		return bb_fail(op->err, -ENOMEM, "%s: out of memory",
			       obj->name);
	for (i = 0; i < obj->ncode; i++) {
		const struct obj_code *c = &obj->code[i];
		struct sec_kind k;
		int nglobal = 0;

		if (!strcmp(c->name, ".text"))
			continue;
		ret = section_kind(c->name, &k);
		if (ret < 0)
			return bb_fail(op->err, -EINVAL,
				       "%s: section %s: a tracepoint section "
				       "is named tracepoint/<category>/<name> "
				       "as in tracefs events/, a syscall one "
				       "ksyscall/<name>, a uprobe one "
				       "uprobe/<path>:<function>", obj->name,
				       c->name);
		if (ret == 0)
			return refuse_code_section(op, c);
		for (j = c->first_func; j < c->first_func + c->nfuncs; j++) {
			if (!obj->funcs[j].global)
				continue;
			nglobal++;
			ret = add_prog(op, c, j, &k);
			if (ret < 0)
				return ret;
		}
		if (nglobal)
			continue;
		if (c->nfuncs)
			return bb_fail(op->err, -EINVAL,
				       "%s: program '%s' in section %s is "
				       "static; make it a global function",
				       obj->name, obj->funcs[c->first_func].name,
				       c->name);
		return bb_fail(op->err, -EINVAL,
			       "%s: section %s has no function symbol; was "
			       "the object stripped?", obj->name, c->name);
	}
	if (!obj->nprogs)
		return bb_fail(op->err, -ENOENT,
			       "%s: no programs; put each one in a section "
			       "named " ACCEPTED_SECTIONS, obj->name);
	/* each constant is reported with the first program in its section */
	for (i = 0; i < obj->nconsts; i++) {
		int code = -1 - obj->const_prog[i];

		obj->const_prog[i] = 0;
		for (j = 0; j < obj->nprogs; j++)
			if (obj->funcs[obj->progs[j].func].code == code) {
				obj->const_prog[i] = j;
				break;
			}
	}
	return 0;
}
