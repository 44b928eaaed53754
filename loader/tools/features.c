/* SPDX-License-Identifier: MIT */
/* barebpf features: what this kernel offers and what barebpf will use. */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "tool.h"

static const struct tool_usage help = { NULL, "features" };

static const char *const block_tps[] = {
	"block_rq_issue", "block_rq_insert", "block_rq_complete",
	"block_bio_queue", "block_bio_complete", "block_getrq",
};

/* Functions barebpf's block tools probe, old names and their successors. */
static const char *const known_funcs[] = {
	"generic_make_request",   /* until 5.8 */
	"submit_bio_noacct",      /* 5.9+ */
	"blk_queue_enter",
	"__bio_queue_enter",      /* 5.15+ slow path (frozen queue) */
	"blk_freeze_queue_start",
	"blk_freeze_queue",
	"blk_mq_freeze_queue",
	"blk_mq_freeze_queue_nomemsave", /* 6.15+ */
	"blk_mq_freeze_queue_wait",
	"blk_mq_unfreeze_queue",
	"blk_mq_start_request",
	"blk_account_io_start",
	"blk_account_io_done",
	"elv_iosched_store",
	"queue_requests_store",
};

/* Can profile sample here? The hardware cycles counter, else the
 * software cpu-clock (most VMs), on CPU 0 as profile opens them. */
static const char *perf_sampling(void)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.sample_period = 49;
	a.flags = PERF_ATTR_FLAG_DISABLED | PERF_ATTR_FLAG_FREQ;
	fd = sys_perf_event_open(&a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return "yes (hardware cycles)";
	}
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	fd = sys_perf_event_open(&a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return "yes (software cpu-clock: no hardware PMU)";
	}
	return "no (perf_event_open refused: profile will not run)";
}

/* Does bpf() work here? Create and close a tiny array map. */
static int bpf_works(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, "probe");

	if (fd >= 0)
		close(fd);
	return fd;
}

/* What features found, for printing. */
struct facts {
	struct utsname u;
	char src[600], jit[16];
	const char *tfs, *perf;
	uint32_t kver;
	int kp, pmu, bpf_ret, up, upmu, btf;
};

static void print_json_head(const struct facts *f)
{
	printf("{\"release\":");
	json_str(stdout, f->u.release);
	printf(",\"version_code\":%u,\"version_hex\":\"0x%06x\","
	       "\"version_source\":", f->kver, f->kver);
	json_str(stdout, f->src);
	printf(",\"bpf\":%s,\"bpf_jit_enable\":", f->bpf_ret >= 0 ? "true"
	       : "false");
	json_str(stdout, f->jit);
	printf(",\"tracefs\":");
	json_str(stdout, f->tfs ? f->tfs : "");
	printf(",\"kprobes\":%s,\"kprobe_pmu\":%s,\"uprobes\":%s,"
	       "\"uprobe_pmu\":%s,\"usdt_semaphores\":%s,"
	       "\"perf_sampling\":%s,\"btf\":%s,\"tracepoints\":[",
	       f->kp ? "true" : "false", f->pmu > 0 ? "true" : "false",
	       f->up ? "true" : "false", f->upmu > 0 ? "true" : "false",
	       uprobe_ref_ctr_available() ? "true" : "false",
	       strncmp(f->perf, "yes", 3) ? "false" : "true",
	       f->btf ? "true" : "false");
}

static void print_text_head(const struct facts *f)
{
	printf("kernel release:      %s\n", f->u.release);
	printf("kernel version code: 0x%06x (%s)\n", f->kver, f->src);
	printf("bpf() syscall:       %s\n", f->bpf_ret >= 0 ? "yes" :
	       strerror(-f->bpf_ret));
	printf("bpf_jit_enable:      %s\n", f->jit);
	printf("tracefs:             %s\n", f->tfs ? f->tfs : "not found");
	printf("kprobes:             %s\n", f->kp ? "yes" :
	       "no (kprobe tools will not run)");
	if (f->pmu > 0)
		printf("kprobe PMU:          yes (type %d): probes "
		       "vanish with barebpf, even after SIGKILL\n", f->pmu);
	else if (getenv("BAREBPF_KPROBES"))
		printf("kprobe PMU:          not used "
		       "(BAREBPF_KPROBES=%s)\n", getenv("BAREBPF_KPROBES"));
	else
		printf("kprobe PMU:          no\n");
	printf("uprobes:             %s\n", f->up ? "yes (user-space "
	       "functions, USDT probes)" : "no (no uprobe_events: "
	       "CONFIG_UPROBE_EVENTS)");
	printf("uprobe PMU:          %s\n", f->upmu > 0 ?
	       (uprobe_ref_ctr_available() ? "yes, with USDT "
		"semaphores" : "yes, without USDT semaphores (4.20)") :
	       getenv("BAREBPF_UPROBES") ? "not used (BAREBPF_UPROBES)" :
	       "no (uprobe_events instead)");
	printf("perf sampling:       %s\n", f->perf);
	printf("BTF:                 %s\n", f->btf ? "yes "
	       "(/sys/kernel/btf/vmlinux; barebpf does not need it)" :
	       "no (barebpf does not need it)");
	printf("block tracepoints:  ");
}

/* The block tracepoints, then the functions of known_funcs found. */
static void print_lists(const struct facts *f, int json, const char *found,
			int nknown)
{
	int i, j;

	for (i = j = 0; i < (int)(sizeof(block_tps) / sizeof(block_tps[0])); i++) {
		if (!f->tfs || tracefs_event_id(f->tfs, "block", block_tps[i]) < 0)
			continue;
		if (json) {
			printf("%s", j++ ? "," : "");
			json_str(stdout, block_tps[i]);
		} else {
			printf(" %s", block_tps[i]);
			j++;
		}
	}
	if (json)
		printf("],\"functions\":{");
	else
		/* without kprobes, present is all that can be said */
		printf("%s\nfunctions (%s):\n", j ? "" : " none", f->kp ?
		       "probe-able" : "present; no kprobes to probe them");
	for (i = 0; i < nknown; i++) {
		if (json) {
			printf("%s", i ? "," : "");
			json_str(stdout, known_funcs[i]);
			printf(":%s", found[i] ? "true" : "false");
		} else {
			printf("  %-30s %s\n", known_funcs[i], found[i] ? "yes" :
			       "-");
		}
	}
	if (json)
		printf("}}\n");
}

static int features_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		TOOL_LONGOPTS,
		{ 0 }
	};
	struct bb_err err = { "" };
	struct tool_ctx t;
	struct facts f = { 0 };
	char found[sizeof(known_funcs) / sizeof(known_funcs[0])] = { 0 };
	const int nknown = (int)(sizeof(known_funcs) / sizeof(known_funcs[0]));
	int json = 0, c, retbit, ret;

	tool_init(&t, "features");
	tool_signals(); /* `features | head`: unmount what it mounted */
	while ((c = getopt_long(argc, argv, "hj", longopts, NULL)) != -1)
		if (tool_opt(&t, c, &help, &json, NULL))
			return 1;
	uname(&f.u);
	ret = kver_detect(t.kver_override, &f.kver, f.src, sizeof(f.src), &err);
	if (ret < 0)
		snprintf(f.src, sizeof(f.src), "unknown: %s", err.msg);
	bb_raise_memlock(NULL);
	f.bpf_ret = bpf_works();
	if (bb_read_small("/proc/sys/net/core/bpf_jit_enable", f.jit,
		       sizeof(f.jit)) < 0)
		strcpy(f.jit, "?");
	f.tfs = tool_tracefs(&t);
	f.kp = f.tfs ? kprobes_available(f.tfs) : 0;
	f.pmu = kprobe_pmu_type(&retbit);
	f.up = f.tfs ? uprobes_available(f.tfs) : 0;
	f.upmu = uprobe_pmu_type(&retbit);
	f.perf = perf_sampling();
	f.btf = access("/sys/kernel/btf/vmlinux", R_OK) == 0;
	/* one streaming pass for these names: a copy of every name of
	 * available_filter_functions (60k+) took 11 MB and 0.2 s */
	if (f.tfs && kprobe_funcs_find(f.tfs, BB_FUNCS_FTRACE, known_funcs,
				       nknown, nknown, found, &err) < 0)
		memset(found, 0, sizeof(found));
	if (json)
		print_json_head(&f);
	else
		print_text_head(&f);
	print_lists(&f, json, found, nknown);
	session_detach_all(&t.sess);
	return 0;
}

const struct tool tool_features = {
	"features", features_main,
	"what this kernel offers (kprobes, uprobes, perf, BTF, tracepoints)"
};
