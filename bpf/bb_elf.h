/* SPDX-License-Identifier: MIT */
/*
 * The contract between a BPF object and the barebpf loader. Both sides
 * include this file; anything compiled elsewhere that follows it can be run
 * with `barebpf run prog.o`.
 *
 * Sections:
 *   kprobe/<function>            BPF_PROG_TYPE_KPROBE, attached at entry
 *   kretprobe/<function>         BPF_PROG_TYPE_KPROBE, attached at return
 *   tracepoint/<category>/<name> BPF_PROG_TYPE_TRACEPOINT
 *   kprobe, kretprobe            as above, the function is chosen at run time
 *   maps                         an array of struct bb_map_def, one per
 *                                global symbol in the section
 *   license                      a NUL-terminated string ("GPL" is needed
 *                                for most tracing helpers)
 *   version                      a u32; ignored (barebpf finds the running
 *                                kernel's version itself)
 *
 * Load-time constants: an ld_imm64 that refers to an undefined symbol is
 * patched with the value the tool (or `barebpf run -c NAME=VALUE`) gives for
 * that name. Programs use this instead of global data, which 4.15 lacks.
 */
#ifndef BAREBPF_BB_ELF_H
#define BAREBPF_BB_ELF_H

struct bb_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

#endif
