/* SPDX-License-Identifier: MIT */
/*
 * The small parsers that replaced sscanf (issue 7: musl's vfscanf was 4 KiB
 * of the binary): a disk's "MAJOR:MINOR" (disk.c) and the pid namespace
 * link "pid:[INODE]" (kprobe.c), against what stat() says on this machine.
 */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "barebpf.h"
#include "bbtest.h"
#include "kernel.h"
#include "probe.h"

START_TEST(test_disk_kdev_matches_stat)
{
	DIR *d = opendir("/sys/class/block");
	struct dirent *e;
	int n = 0;

	if (!d)
		bbtest_skip("no /sys/class/block here");
	while ((e = readdir(d))) {
		char path[300];
		struct stat st;
		uint32_t kdev = 0;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/dev/%s", e->d_name);
		if (stat(path, &st) || !S_ISBLK(st.st_mode))
			continue;
		ck_assert_int_eq(disk_kdev(e->d_name, &kdev), 0);
		ck_assert_uint_eq(kdev, major(st.st_rdev) << 20 |
					       minor(st.st_rdev));
		ck_assert_int_eq(disk_kdev(path, &kdev), 0);
		n++;
	}
	closedir(d);
	if (!n)
		bbtest_skip("no block device with a /dev node here");
	ck_assert_int_eq(disk_kdev("no-such-disk", NULL), -ENOENT);
	ck_assert_int_eq(disk_kdev("", NULL), -EINVAL);
	ck_assert_int_eq(disk_kdev("../block", NULL), -EINVAL);
}
END_TEST

START_TEST(test_pidns_ino_matches_stat)
{
	struct stat st;

	ck_assert_int_eq(stat("/proc/self/ns/pid", &st), 0);
	ck_assert_uint_eq(bb_pidns_ino("self"), st.st_ino);
	ck_assert_uint_eq(bb_pidns_ino("0"), 0); /* no such process */
}
END_TEST

static Suite *disk_suite(void)
{
	Suite *s = suite_create("disk");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_disk_kdev_matches_stat);
	tcase_add_test(tc, test_pidns_ino_matches_stat);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(disk, disk_suite, NULL)
