/* SPDX-License-Identifier: MIT */
/*
 * A 32-bit x86 (ia32) task for funccount's test of 32-bit calls on a
 * 64-bit kernel: read(0) one byte (the go), then getppid() 777 times
 * (ia32 number 64: x86_64's semget), then exit(0). No C library (the
 * build host has no 32-bit one): int $0x80 and ia32 numbers, built with
 * -m32 -nostdlib; where that cannot be built the test skips.
 */
static inline long ia32_call(long nr, long a, long b, long c)
{
	long r;

	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b),
			 "d"(c) : "memory");
	return r;
}

void _start(void);
void _start(void)
{
	char b;
	int i;

	if (ia32_call(3, 0, (long)&b, 1) != 1)  /* read */
		ia32_call(1, 1, 0, 0);          /* exit(1) */
	for (i = 0; i < 777; i++)
		ia32_call(64, 0, 0, 0);         /* getppid */
	ia32_call(1, 0, 0, 0);                  /* exit(0) */
	for (;;)
		;
}
