/* SPDX-License-Identifier: MIT */
/*
 * A program for profile's cases (vm-tests/cases/profile-folded.sh): it
 * spins for ever in two named functions, vmtest_spin_inner most of the
 * time, called from vmtest_spin_outer. Without a C library (the guest
 * has none), static, with its .symtab and frame pointers: run.sh builds
 * it with each guest architecture's cross compiler, an ELF32 on armv7.
 */
__attribute__((noinline)) int vmtest_spin_inner(int x)
{
	int i;

	for (i = 0; i < 100000; i++)
		__asm__ volatile("" : "+r"(x));
	return x;
}

__attribute__((noinline)) void vmtest_spin_outer(void)
{
	volatile int x = 0;

	for (;;)
		x = vmtest_spin_inner(x);
}

void _start(void)
{
	vmtest_spin_outer();
}
