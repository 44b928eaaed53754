/* SPDX-License-Identifier: MIT */
/* The exporter's fs collector: which file-system types it traces (its
 * label values from the start), from the functions the kernel has. */
#include <string.h>
#include "bbtest.h"
#include "exporter.h"

START_TEST(test_fs_types_present)
{
	/* sorted, as available_filter_functions is read: ext4 of 5.10 and
	 * xfs; btrfs without its fsync (not a type it has); f2fs reading
	 * through the generic function */
	static char *avail[] = {
		"btrfs_file_open", "btrfs_file_read_iter",
		"btrfs_file_write_iter",
		"ext4_file_open", "ext4_file_read_iter", "ext4_file_write_iter",
		"ext4_sync_file",
		"f2fs_file_open", "f2fs_file_write_iter", "f2fs_sync_file",
		"generic_file_read_iter",
		"vfs_read",
		"xfs_file_fsync", "xfs_file_open", "xfs_file_read_iter",
		"xfs_file_write_iter",
	};
	struct exp_fs_type ty[EXP_FS_TYPES];
	int n = exp_fs_present(avail, 16, ty, EXP_FS_TYPES);

	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(ty[0].name, "ext4");
	ck_assert_str_eq(ty[0].pick.fn[0], "ext4_file_read_iter");
	ck_assert_int_eq(ty[0].pick.generic, 0);
	ck_assert_str_eq(ty[1].name, "xfs");
	ck_assert_str_eq(ty[1].pick.fn[3], "xfs_file_fsync");
	ck_assert_str_eq(ty[2].name, "f2fs");
	ck_assert_str_eq(ty[2].pick.fn[0], "generic_file_read_iter");
	ck_assert_int_eq(ty[2].pick.generic, 1);
	/* the cap, and a kernel with none */
	ck_assert_int_eq(exp_fs_present(avail, 16, ty, 1), 1);
	ck_assert_str_eq(ty[0].name, "ext4");
	ck_assert_int_eq(exp_fs_present(avail + 11, 1, ty, EXP_FS_TYPES), 0);
}
END_TEST

static Suite *exporter_fs_suite(void)
{
	Suite *s = suite_create("exporter_fs");
	TCase *tc = tcase_create("types");

	tcase_add_test(tc, test_fs_types_present);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(exporter_fs, exporter_fs_suite, NULL)
