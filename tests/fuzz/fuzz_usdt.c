/* SPDX-License-Identifier: MIT */
/*
 * USDT notes and their argument operands (loader/user/usdt.c): what `trace
 * u:/path:probe` reads from a program. The input is read as an ELF file,
 * and as an argument string for each architecture. Every note reported
 * lies in the file (its probe and its semaphore at offsets inside it),
 * with a name; every argument parsed has a size of 1, 2, 4 or 8 and a
 * register inside pt_regs.
 */
#include <elf.h>
#include "fuzz.h"
#include "usdt.h"
#include "user.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

static void args_check(const char *spec)
{
	static const int machines[] = { EM_X86_64, EM_AARCH64, EM_ARM,
					EM_RISCV };
	struct usdt_arg a[USDT_MAX_ARGS];
	size_t m;
	int n, i;

	for (m = 0; m < sizeof(machines) / sizeof(machines[0]); m++) {
		struct bb_err err = { "" };

		n = usdt_args_parse(spec, machines[m], a, USDT_MAX_ARGS, &err);
		FUZZ_ASSERT(n <= USDT_MAX_ARGS);
		FUZZ_ASSERT(n >= 0 || err.msg[0]);
		for (i = 0; i < n; i++) {
			FUZZ_ASSERT(a[i].size == 1 || a[i].size == 2 ||
				    a[i].size == 4 || a[i].size == 8);
			FUZZ_ASSERT(a[i].kind == USDT_CONST ||
				    (a[i].reg_off >= 0 && a[i].reg_off < 256));
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct usdt_file f;
	char *s;
	int i;

	if (usdt_file_read_buf(data, size, &f) == 0) {
		FUZZ_ASSERT(f.nnotes >= 0 && f.nnotes <= USDT_MAX_NOTES);
		for (i = 0; i < f.nnotes; i++) {
			const struct usdt_note *n = &f.notes[i];

			FUZZ_ASSERT(n->name[0]);
			FUZZ_ASSERT(strlen(n->name) < sizeof(n->name));
			FUZZ_ASSERT(strlen(n->provider) < sizeof(n->provider));
			FUZZ_ASSERT(strlen(n->args) < sizeof(n->args));
			FUZZ_ASSERT(n->pc_off < size);
			FUZZ_ASSERT(n->sema_off < size);
			args_check(n->args);
		}
		usdt_file_free(&f);
	}
	s = fuzz_str(data, size);
	args_check(s);
	free(s);
	return 0;
}
