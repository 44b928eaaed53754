/* SPDX-License-Identifier: MIT */
/*
 * trace's probe language (loader/tools/trace/: trace_lex.c, trace_spec.c,
 * trace_filter.c, trace_prog.c, trace_fmt.c): the input's first line is a
 * probe, parsed, then compiled for both architectures against the fields
 * of a tracepoint format; the
 * rest of the input is a record as the BPF program would send it, printed
 * as text and JSON (valid, its strings escaped). What is compiled must fit
 * the program's record.
 */
#include "fuzz.h"
#include "barebpf.h"
#include "../jsoncheck.h"
/* the trace tool's own files: they are not in the library */
#include "../../loader/tools/trace/trace_lex.c"
#include "../../loader/tools/trace/trace_spec.c"
#include "../../loader/tools/trace/trace_filter.c"
#include "../../loader/tools/trace/trace_prog.c"
#include "../../loader/tools/trace/trace_fmt.c"

static const char format[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:32;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:48;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc char[] rel;\toffset:52;\tsize:4;\tsigned:0;\n"
	"\tfield:u8 small;\toffset:56;\tsize:1;\tsigned:0;\n"
	"\tfield:int ids[3];\toffset:60;\tsize:12;\tsigned:1;\n"
	"\tfield:u64 wide[1];\toffset:72;\tsize:24;\tsigned:0;\n";

static void check(const struct trace_spec *sp, const struct trace_prog *pr)
{
	int i;

	FUZZ_ASSERT(pr->nslots >= 0 && pr->nslots <= TRACE_NSLOTS);
	/* a probe sends only what it uses (bpf/trace.h): at least the
	 * head, its values only with slots, at most the whole record */
	FUZZ_ASSERT(pr->rec_size >= TRACE_EVENT_HEAD &&
		    pr->rec_size <= TRACE_EVENT_FIXED + TRACE_STR_AREA);
	FUZZ_ASSERT(pr->nslots || pr->rec_size <= TRACE_EVENT_VALS);
	FUZZ_ASSERT(!pr->nslots ||
		    pr->rec_size >= TRACE_EVENT_VALS + 8 * (uint64_t)pr->nslots);
	for (i = 0; i < pr->nslots; i++) {
		const struct trace_slot_c *s = &pr->slots[i];

		FUZZ_ASSERT(s->base != TRACE_BASE_NONE);
		FUZZ_ASSERT(s->size >= 1 && s->size <= 8);
		FUZZ_ASSERT(s->str == TRACE_STR_NONE ||
			    (s->strsize >= 1 && s->strsize <= TRACE_STR_MAX &&
			     s->stroff + s->strsize <= TRACE_STR_AREA));
		FUZZ_ASSERT(!s->zero || s->strsize >= 64);
	}
	for (i = 0; i < sp->nconv; i++)
		FUZZ_ASSERT(pr->arg_slot[i] >= 0 &&
			    pr->arg_slot[i] < pr->nslots);
	for (i = 0; i < sp->nterms; i++) {
		FUZZ_ASSERT(pr->terms[i].op != TRACE_OP_NONE);
		FUZZ_ASSERT(pr->terms[i].slot < (uint64_t)pr->nslots);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct trace_event e;
	static struct bb_tp_field fields[16];
	const struct bb_arch *arch[] = { &bb_arch_x86_64,
					    &bb_arch_arm64 };
	const uint8_t *nl = memchr(data, '\n', size);
	size_t tlen = nl ? (size_t)(nl - data) : size, rlen;
	struct bb_err err = { "" };
	struct trace_spec sp;
	struct trace_prog pr;
	char *text = fuzz_str(data, tlen), *out = NULL;
	size_t olen = 0;
	FILE *f;
	int nf, a, i;

	nf = tp_format_parse(format, fields, 16);
	FUZZ_ASSERT(nf == 10);
	if (trace_spec_parse(text, &sp, &err) < 0) {
		FUZZ_ASSERT(err.msg[0]);
		goto out;
	}
	FUZZ_ASSERT(sp.nterms <= TRACE_NTERMS && sp.nconv <= TRACE_MAX_ARGS);
	for (i = 0; i < sp.nconv; i++)
		FUZZ_ASSERT(sp.conv[i].start < sp.conv[i].end &&
			    sp.conv[i].end <= (int)strlen(sp.fmt));
	rlen = nl ? size - tlen - 1 : 0;
	if (rlen > sizeof(e))
		rlen = sizeof(e);
	memset(&e, 0, sizeof(e));
	if (rlen)
		memcpy(&e, nl + 1, rlen);
	for (a = 0; a < 2; a++) {
		int strsize = 1 + (int)(tlen % TRACE_STR_MAX);

		err.msg[0] = 0;
		if (trace_spec_compile(&sp, arch[a], fields, nf, strsize, &pr,
				       &err) < 0) {
			FUZZ_ASSERT(err.msg[0]);
			continue;
		}
		check(&sp, &pr);
		f = open_memstream(&out, &olen);
		FUZZ_ASSERT(f);
		trace_format(f, &sp, &pr, &e, (uint32_t)rlen, NULL, NULL);
		fclose(f);
		free(out);
		out = NULL;
		/* the record's strings escaped: valid JSON, and no raw
		 * bidirectional control (U+202A..U+202E as UTF-8) */
		f = open_memstream(&out, &olen);
		FUZZ_ASSERT(f);
		trace_json_args(f, &sp, &pr, &e, (uint32_t)rlen, NULL, NULL);
		fclose(f);
		FUZZ_ASSERT(!json_check(out, olen));
		for (i = 0; i + 2 < (int)olen; i++)
			FUZZ_ASSERT(!((unsigned char)out[i] == 0xe2 &&
				      (unsigned char)out[i + 1] == 0x80 &&
				      (unsigned char)out[i + 2] >= 0xaa &&
				      (unsigned char)out[i + 2] <= 0xae));
		free(out);
		out = NULL;
	}
out:
	free(text);
	return 0;
}
