/* SPDX-License-Identifier: MIT */
/* The exporter's hardirqs collector: the handler names of /proc/interrupts
 * (its label values from the start). */
#include <string.h>
#include "bbtest.h"
#include "exporter.h"

START_TEST(test_names_of_proc_interrupts)
{
	/* x86_64 with a shared line, an arm64 GIC, and lines without a
	 * number (NMI, LOC, ERR) */
	static const char text[] =
		"           CPU0       CPU1       \n"
		"  0:         44          0   IO-APIC   2-edge      timer\n"
		" 16:          0         12   IO-APIC  16-fasteoi   "
		"ehci_hcd:usb1, uhci_hcd:usb2\n"
		" 24:       1156          0  PCI-MSI 32768-edge      "
		"nvme0q0\n"
		" 11:     191052     187651     GICv3  27 Level     "
		"arch_timer\n"
		" 40:          0          0  PCI-MSI 1-edge      "
		"a_name_much_longer_than_thirty_one_bytes\n"
		" 41:          9          0  IO-APIC   1-edge      timer\n"
		"NMI:          0          0   Non-maskable interrupts\n"
		"LOC:    5081700    5081701   Local timer interrupts\n"
		"ERR:          0\n";
	char names[8][32];
	int n = exp_irq_names(text, names, 8);

	ck_assert_int_eq(n, 6);
	ck_assert_str_eq(names[0], "timer");
	ck_assert_str_eq(names[1], "uhci_hcd:usb2");
	ck_assert_str_eq(names[2], "ehci_hcd:usb1");
	ck_assert_str_eq(names[3], "nvme0q0");
	ck_assert_str_eq(names[4], "arch_timer");
	/* cut as the tracepoint's name is (31 bytes and a NUL) */
	ck_assert_str_eq(names[5], "a_name_much_longer_than_thirty_");
	/* the cap */
	ck_assert_int_eq(exp_irq_names(text, names, 2), 2);
	ck_assert_int_eq(exp_irq_names("", names, 8), 0);
}
END_TEST

static Suite *exporter_irq_suite(void)
{
	Suite *s = suite_create("exporter_irq");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, test_names_of_proc_interrupts);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(exporter_irq, exporter_irq_suite, NULL)
