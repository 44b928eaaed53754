/* SPDX-License-Identifier: MIT */
/*
 * USDT probes as systemtap's <sys/sdt.h> makes them, for the test
 * programs (this host has no sys/sdt.h): a nop where the probe is, and a
 * note in .note.stapsdt (owner "stapsdt", type 3) holding the nop's
 * address, that of .stapsdt.base (for prelink), the semaphore's or 0,
 * then "provider\0name\0arguments\0", the arguments being what the
 * compiler prints for each operand after its size ("-4@%edi", "8@x1";
 * negative: signed). The same directives as sys/sdt.h's, byte for byte
 * the same note: check with `readelf -n`.
 *
 *   BB_SDT2(prov, name, "nor", a, "nor", b)      a probe, 2 arguments
 *   BB_SDT_SEMA(prov, name)                      its semaphore, defined
 *   BB_SDT_ENABLED(prov, name)                   non-zero while traced
 *   BB_SDT2_S(prov, name, ...)                   a probe that has one
 *
 * Each argument comes with its constraint: sys/sdt.h's is "nor" (a
 * register, a memory operand or a constant, as the compiler likes);
 * "m" forces a memory operand and "n" a constant. Pointers are passed as
 * uintptr_t (sys/sdt.h's size and sign for them).
 */
#ifndef BAREBPF_TEST_SDT_H
#define BAREBPF_TEST_SDT_H

#if defined(__x86_64__) || defined(__aarch64__) || \
	(defined(__riscv) && __riscv_xlen == 64)
#define BB_SDT_ADDR ".8byte"
#elif defined(__arm__) || defined(__i386__)
#define BB_SDT_ADDR ".4byte"
#else
#error "tests/tools/sdt.h: add this architecture"
#endif

/* sys/sdt.h's size operand: printed with %n (negated), so a signed
 * argument gives "-4" */
#define BB_SDT_SIZE(x)                                                         \
	((int)sizeof(x) * (((__typeof__(x))-1 < (__typeof__(x))1) ? 1 : -1))

#define BB_SDT_SEMA(prov, name)                                                \
	__extension__ volatile unsigned short prov##_##name##_semaphore       \
		__attribute__((unused, section(".probes")))
#define BB_SDT_ENABLED(prov, name) (prov##_##name##_semaphore != 0)

#define BB_SDT_BASE                                                            \
	".ifndef _.stapsdt.base\n"                                             \
	".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
	".weak _.stapsdt.base\n"                                               \
	".hidden _.stapsdt.base\n"                                             \
	"_.stapsdt.base: .space 1\n"                                           \
	".size _.stapsdt.base, 1\n"                                            \
	".popsection\n"                                                        \
	".endif\n"

#define BB_SDT_NOTE(prov, name, sema, args)                                    \
	"990: nop\n"                                                           \
	".pushsection .note.stapsdt,\"?\",\"note\"\n"                          \
	".balign 4\n"                                                          \
	".4byte 992f-991f, 994f-993f, 3\n"                                     \
	"991: .asciz \"stapsdt\"\n"                                            \
	"992: .balign 4\n"                                                     \
	"993: " BB_SDT_ADDR " 990b\n"                                          \
	BB_SDT_ADDR " _.stapsdt.base\n"                                        \
	BB_SDT_ADDR " " sema "\n"                                              \
	".asciz \"" #prov "\"\n"                                               \
	".asciz \"" #name "\"\n"                                               \
	".asciz \"" args "\"\n"                                                \
	"994: .balign 4\n"                                                     \
	".popsection\n" BB_SDT_BASE

#define BB_SDT0_(prov, name, sema)                                             \
	__asm__ __volatile__(BB_SDT_NOTE(prov, name, sema, ""))
#define BB_SDT2_(prov, name, sema, c1, a1, c2, a2)                             \
	__asm__ __volatile__(BB_SDT_NOTE(prov, name, sema, "%n0@%1 %n2@%3")   \
			     : : "n"(BB_SDT_SIZE(a1)), c1(a1),                 \
			       "n"(BB_SDT_SIZE(a2)), c2(a2))
#define BB_SDT3_(prov, name, sema, c1, a1, c2, a2, c3, a3)                     \
	__asm__ __volatile__(BB_SDT_NOTE(prov, name, sema,                     \
					 "%n0@%1 %n2@%3 %n4@%5")               \
			     : : "n"(BB_SDT_SIZE(a1)), c1(a1),                 \
			       "n"(BB_SDT_SIZE(a2)), c2(a2),                   \
			       "n"(BB_SDT_SIZE(a3)), c3(a3))

#define BB_SDT0(prov, name) BB_SDT0_(prov, name, "0")
#define BB_SDT2(prov, name, ...) BB_SDT2_(prov, name, "0", __VA_ARGS__)
#define BB_SDT3(prov, name, ...) BB_SDT3_(prov, name, "0", __VA_ARGS__)
/* with the semaphore BB_SDT_SEMA(prov, name) defined */
#define BB_SDT2_S(prov, name, ...)                                             \
	BB_SDT2_(prov, name, #prov "_" #name "_semaphore", __VA_ARGS__)

#endif
