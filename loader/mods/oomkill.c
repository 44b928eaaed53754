/* SPDX-License-Identifier: MIT */
/* bpf/oomkill.bpf.c on the host: the fields this kernel's mark_victim
 * has, the ring, the probe. */
#include <errno.h>
#include <string.h>
#include "mods.h"
#include "oomkill.skel.h"
#include "../../bpf/oomkill.h"

EMBEDDED_OBJ(oomkill);

/* The offset of mark_victim's field, or -ENOENT where it has none. */
static int field_at(struct tool_ctx *t, const char *field)
{
	struct bb_tp_field f;
	struct bb_err err;
	const char *tfs = tool_tracefs(t);
	int ret = tfs ? tp_field(tfs, "oom", "mark_victim", field, &f, &err) :
			-ENOENT;

	return ret < 0 ? ret : f.offset;
}

static const struct mod_tp_off sig_offs[] = {
	{ "signal_generate", "sig", OOMKILL_C_tpoff_sig_sig, 0, 0 },
	{ "signal_generate", "pid", OOMKILL_C_tpoff_sig_pid, 0, 0 },
	{ "signal_generate", "comm", OOMKILL_C_tpoff_sig_comm, 0, 0 },
};

static int configure(struct tool_ctx *t)
{
	static const char *const rss[] = { "total_vm", "anon_rss",
					   "file_rss", "shmem_rss" };
	static const int rss_ids[] = { OOMKILL_C_tpoff_total_vm,
		OOMKILL_C_tpoff_anon_rss, OOMKILL_C_tpoff_file_rss,
		OOMKILL_C_tpoff_shmem_rss };
	struct bb_obj *o = t->obj;
	int pid = field_at(t, "pid"), comm, off[4], has_rss = 1, i, ret;

	if (pid < 0 && !tool_tracefs(t))
		return -ENOENT; /* said */
	if (pid < 0)
		return tool_fail(t, pid, "this kernel has no oom:mark_victim "
				 "tracepoint (Linux 4.13 on), which oomkill "
				 "reads: it cannot run here");
	comm = field_at(t, "comm");
	if ((ret = mod_tp_offsets(t, &oomkill_skel, "signal", sig_offs, 3,
				   1)) < 0)
		return ret;
	for (i = 0; i < 4; i++) {
		off[i] = field_at(t, rss[i]);
		if (off[i] < 0)
			has_rss = 0;
	}
	for (i = 0; i < 4; i++)
		if ((ret = oomkill_set(o, rss_ids[i], has_rss ? off[i] : 0)) < 0)
			return tool_fail(t, ret, "internal: constant %s", rss[i]);
	const int set[] = {
		oomkill_set(o, OOMKILL_C_tpoff_pid, (uint64_t)pid),
		oomkill_set(o, OOMKILL_C_has_comm, comm >= 0),
		oomkill_set(o, OOMKILL_C_tpoff_comm, comm >= 0 ? comm : 0),
		oomkill_set(o, OOMKILL_C_has_rss, has_rss),
	};
	if (t->verbose)
		fprintf(stderr, "oom:mark_victim has %s\n", has_rss ?
			"the victim's name and sizes" : comm >= 0 ?
			"the victim's name" : "the victim's pid only");
	return MOD_CONSTS_SET(t, set);
}

int oomkill_start(struct tool_ctx *t, perfbuf_sample_fn on_event, void *ctx,
		  struct bb_perfbuf **pb)
{
	/* mark_victim reads what the SIGKILL before it left: it first */
	struct bb_probe p[] = {
		{ OOMKILL_P_mark_victim, NULL, 0, NULL, "kill", 0, 0 },
		{ OOMKILL_P_sigkill, NULL, 0, "kill", NULL, 0, 0 },
	};
	int ret = tool_open(t, &oomkill_skel, EMBEDDED_ARGS(oomkill));

	if (ret < 0 || (ret = configure(t)) < 0 || (ret = tool_load(t)) < 0)
		return ret;
	ret = tool_ring(t, oomkill_map_fd(t->obj, OOMKILL_M_events), 8,
			on_event, ctx, pb);
	return ret < 0 ? ret : tool_attach_probes(t, p, 2);
}
