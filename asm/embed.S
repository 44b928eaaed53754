/*
 * Embeds one BPF ELF object in the binary, compressed (scripts/lzpack.c;
 * tool_open decodes it with lz_decode). Built once per object with
 *   -DOBJ_NAME=<name> -DOBJ_PATH="<path to .bpf.lz>"
 * and gives the symbols bpfobj_<name> and bpfobj_<name>_end; or with
 *   -DSYM=<symbol> -DOBJ_PATH=...
 * the symbols <symbol> and <symbol>_end (the tools' help texts, help.c).
 */
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#ifndef SYM
#define SYM CAT(bpfobj_, OBJ_NAME)
#endif
#define SYM_END CAT(SYM, _end)

	.section .rodata
	.balign 8
	.global SYM
	.global SYM_END
SYM:
	.incbin OBJ_PATH
SYM_END:
	.byte 0
	.section .note.GNU-stack,"",%progbits
