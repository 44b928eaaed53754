/* SPDX-License-Identifier: MIT */
/*
 * trace's messages: a probe's format filled with the values of one event,
 * the way bcc's trace does it in Python: %d of a value is (int)value, %lx
 * (unsigned long), %s the string read, %K the kernel symbol+offset, %U the
 * user symbol and its module.
 */
#include <stdio.h>
#include <string.h>
#include "trace_spec.h"
#include "output.h"

/*
 * The text of a %s whose read failed (a bad or NULL pointer, memory paged
 * out): bcc prints an empty string, which looks like one read; JSON has
 * null.
 */
#define STR_UNREAD "[?]"

/* The string of a slot in the record, within what was received; -1 if
 * its read failed. (0 is what bpf_probe_read returns, which stands in for
 * bpf_probe_read_str before 4.11: the string is there.) */
static long slot_str(const struct trace_prog *pr,
		     const struct trace_event *e, uint32_t size, int slot,
		     const char **s)
{
	const struct trace_slot_c *sl = &pr->slots[slot];
	uint64_t start = TRACE_EVENT_FIXED + sl->stroff, n;

	*s = "";
	if (sl->str != TRACE_STR_NONE && e->str_ret[slot] < 0)
		return -1;
	if (sl->str == TRACE_STR_NONE || start >= size ||
	    start >= TRACE_EVENT_SIZE)
		return 0;
	n = size - start < sl->strsize ? size - start : sl->strsize;
	*s = (const char *)e + start;
	return strnlen(*s, n);
}

static uint64_t narrow(uint64_t v, int size, int is_signed)
{
	if (size == 2)
		return is_signed ? (uint64_t)(int64_t)(int16_t)v : (uint16_t)v;
	if (size == 4)
		return is_signed ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
	return v;
}

/* A value as text that is not a number: %s %c %K %U. */
static void render(char *buf, size_t len, const struct trace_conv *c,
		   const struct trace_prog *pr, const struct trace_event *e,
		   uint32_t size, int slot, const struct bb_ksyms *ks,
		   struct bb_usyms *us)
{
	uint64_t v = e->val[slot], off;
	const struct bb_ksym *k;
	struct bb_usym u;
	const char *s;
	char ch;
	long n;

	switch (c->type) {
	case 's':
		n = slot_str(pr, e, size, slot, &s);
		if (n < 0)
			snprintf(buf, len, STR_UNREAD);
		else /* one event stays on one line */
			esc_text(buf, len, s, (size_t)n);
		break;
	case 'c':
		ch = (char)v;
		if (ch)
			esc_text(buf, len, &ch, 1);
		else /* esc_text ends at a NUL */
			snprintf(buf, len, "\\x00");
		break;
	case 'K':
		k = ks ? ksyms_find(ks, v, &off) : NULL;
		if (k)
			snprintf(buf, len, "%s+0x%llx", k->name,
				 (unsigned long long)off);
		else
			snprintf(buf, len, "0x%llx", (unsigned long long)v);
		break;
	default: /* 'U' */
		if (us && usyms_find(us, (int)e->tgid, v, &u) == 0)
			usym_format(buf, len, &u);
		else
			snprintf(buf, len, "0x%llx", (unsigned long long)v);
		break;
	}
}

static void print_conv(FILE *f, const struct trace_conv *c,
		       const struct trace_prog *pr,
		       const struct trace_event *e, uint32_t size, int slot,
		       const struct bb_ksyms *ks, struct bb_usyms *us)
{
	char fmt[32], buf[4 * TRACE_STR_MAX + 64];
	uint64_t v = e->val[slot];

	switch (c->type) {
	case 'd':
		snprintf(fmt, sizeof(fmt), "%slld", c->spec);
		fprintf(f, fmt, (long long)narrow(v, c->size, 1));
		return;
	case 'u':
	case 'x':
	case 'X':
		snprintf(fmt, sizeof(fmt), "%sll%c", c->spec, c->type);
		fprintf(f, fmt, (unsigned long long)narrow(v, c->size, 0));
		return;
	case 'p':
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
		break;
	default:
		render(buf, sizeof(buf), c, pr, e, size, slot, ks, us);
		break;
	}
	snprintf(fmt, sizeof(fmt), "%ss", c->spec);
	fprintf(f, fmt, buf);
}

void trace_format(FILE *f, const struct trace_spec *sp,
		  const struct trace_prog *pr, const struct trace_event *e,
		  uint32_t size, const struct bb_ksyms *ks,
		  struct bb_usyms *us)
{
	const char *fmt = sp->fmt;
	int i, at = 0;

	for (i = 0; i <= sp->nconv; i++) {
		int end = i < sp->nconv ? sp->conv[i].start : (int)strlen(fmt);

		/* the text up to the conversion, with %% as % */
		for (; at < end; at++) {
			fputc(fmt[at], f);
			if (fmt[at] == '%' && fmt[at + 1] == '%')
				at++;
		}
		if (i == sp->nconv)
			break;
		print_conv(f, &sp->conv[i], pr, e, size, pr->arg_slot[i], ks,
			   us);
		at = sp->conv[i].end;
	}
}

void trace_json_args(FILE *f, const struct trace_spec *sp,
		     const struct trace_prog *pr, const struct trace_event *e,
		     uint32_t size, const struct bb_ksyms *ks,
		     struct bb_usyms *us)
{
	char buf[4 * TRACE_STR_MAX + 64];
	int i;

	fputc('[', f);
	for (i = 0; i < sp->nconv; i++) {
		const struct trace_conv *c = &sp->conv[i];
		int slot = pr->arg_slot[i];
		uint64_t v = e->val[slot];
		const char *s;
		long n;

		if (i)
			fputc(',', f);
		switch (c->type) {
		case 'd':
			fprintf(f, "%lld", (long long)narrow(v, c->size, 1));
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'p':
			fprintf(f, "%llu",
				(unsigned long long)narrow(v, c->size, 0));
			break;
		case 's':
			/* JSON escapes what it must: the bytes as read */
			n = slot_str(pr, e, size, slot, &s);
			if (n < 0) {
				fputs("null", f);
				break;
			}
			snprintf(buf, sizeof(buf), "%.*s", (int)n, s);
			json_str(f, buf);
			break;
		case 'c':
			buf[0] = (char)v;
			buf[1] = 0;
			json_str(f, buf);
			break;
		default:
			render(buf, sizeof(buf), c, pr, e, size, slot, ks, us);
			json_str(f, buf);
			break;
		}
	}
	fputc(']', f);
}
