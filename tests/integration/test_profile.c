/* SPDX-License-Identifier: MIT */
/*
 * profile and offcputime on this kernel, against a load with known stacks
 * (tests/tools/stackload.c, built with frame pointers):
 *  - profile -f -p PID of a process burning CPU 3:1 in spin_three and
 *    spin_one finds both by name, in a ratio within 20 % of 3; its --svg
 *    parses as XML and names both;
 *  - offcputime -f -p PID of a process napping 20 x 100 ms, then reading
 *    a pipe written every 100 ms 10 times, counts about 2.0 s of nanosleep
 *    stacks and 1.0 s of pipe-read stacks (within 20 % of what the
 *    process measured of each part);
 *  - profile names the functions of the load stripped with MiniDebugInfo
 *    added, as Fedora's packages are;
 *  - both name the user frames of processes that exited before the tool
 *    printed, and lived too short for its one-second pass over the counts
 *    to read their maps (--build-id).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bbtest.h"
#include "util.h"

#define STACKLOAD BB_BUILD_DIR "/tests/stackload"

/* The counts of the folded lines (of out) whose frames hold what. */
static unsigned long long folded_sum(const char *out, const char *what)
{
	unsigned long long sum = 0;
	const char *line = out;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char buf[8192];
		char *sp;

		if (n < sizeof(buf)) {
			memcpy(buf, line, n);
			buf[n] = 0;
			sp = strrchr(buf, ' ');
			if (sp) {
				*sp = 0;
				if (strstr(buf, what))
					sum += strtoull(sp + 1, NULL, 10);
			}
		}
		line += n + (nl != NULL);
	}
	return sum;
}

/* The counts of the folded lines of comm (their first frame) whose other
 * frames hold one of what (NULL-terminated; none: every line of comm). */
static unsigned long long comm_sum(const char *out, const char *comm,
				   const char *const *what)
{
	unsigned long long sum = 0;
	const char *line = out;
	size_t cl = strlen(comm);

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char buf[8192];
		char *sp;
		int i, hit = !what[0];

		if (n < sizeof(buf) && n > cl && !strncmp(line, comm, cl) &&
		    line[cl] == ';') {
			memcpy(buf, line, n);
			buf[n] = 0;
			sp = strrchr(buf, ' ');
			if (sp) {
				*sp = 0;
				for (i = 0; what[i]; i++)
					hit |= strstr(buf, what[i]) != NULL;
				if (hit)
					sum += strtoull(sp + 1, NULL, 10);
			}
		}
		line += n + (nl != NULL);
	}
	return sum;
}

/*
 * tool (argv, which says "Sampling" or "Tracing" on stderr once it has
 * started) while `stackload brief` runs 12 times in a row for 150 ms each
 * as "bbbrief" (each gone within the tool's one-second pass, most never
 * seen by it alive), next to one running 3 s as "bblong" (seen: the file
 * the others run is known). Of what the tool counted for bbbrief in the
 * user stacks it took, the share (in 1/1000) in stacks naming brief, the function of their loop: their
 * user frames named after they exited, not [unknown]. (Not nap_brief: the
 * frame-pointer walk from libc's clock_nanosleep, which keeps none, skips
 * its caller.)
 */
static unsigned exited_named(char *const argv[], const char *started,
			     char *out, size_t len, unsigned long long *total)
{
	static const char *const named[] = { ";brief;", NULL };
	static const char *const all[] = { NULL };
	static const char *const missed[] = { "[Missed User Stack]", NULL };
	char *const lng[] = { STACKLOAD, "brief", "3000", "bblong", NULL };
	char err[4096], cmd[512];
	struct proc p, l;

	spawn(&p, argv);
	read_until(p.err, err, sizeof(err), started, 20000);
	ck_assert_msg(strstr(err, started), "%s did not start: %s", argv[1],
		      err);
	spawn(&l, lng);
	snprintf(cmd, sizeof(cmd), "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do "
		 "%s brief 150 bbbrief || exit 1; done", STACKLOAD);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(wait_exit(l.pid), 0);
	read_until(p.out, out, len, NULL, 30000);
	read_until(p.err, err, sizeof(err), NULL, 2000);
	ck_assert_msg(wait_exit(p.pid) == 0, "%s failed: %s", argv[1], err);
	/* the stacks taken: a stack lost to the map (another one took its
	 * slot on this busy host) has no frames to name */
	*total = comm_sum(out, "bbbrief", all) -
		 comm_sum(out, "bbbrief", missed);
	return *total ? comm_sum(out, "bbbrief", named) * 1000 / *total : 0;
}

START_TEST(test_profile_exited)
{
	static char out[1 << 22];
	char *const argv[] = { (char *)barebpf(), "profile", "-F", "497",
			       "-f", "--build-id", "5", NULL };
	unsigned long long total;
	unsigned share = exited_named(argv, "Sampling", out, sizeof(out),
				      &total);

	ck_assert_msg(total >= 20, "%llu samples of bbbrief", total);
	ck_assert_msg(share >= 800, "%u/1000 of %llu bbbrief samples in "
		      "stacks naming brief", share, total);
}
END_TEST

START_TEST(test_offcputime_exited)
{
	static char out[1 << 22];
	char *const argv[] = { (char *)barebpf(), "offcputime", "-u", "-f",
			       "--build-id", "5", NULL };
	unsigned long long total;
	unsigned share = exited_named(argv, "Tracing", out, sizeof(out),
				      &total);

	/* 12 x 150 ms, about half of it in naps */
	ck_assert_msg(total >= 300000, "%llu us of bbbrief", total);
	ck_assert_msg(share >= 800, "%u/1000 of %llu us of bbbrief in "
		      "stacks naming brief", share, total);
}
END_TEST

static int svg_names(const char *path, const char *a, const char *b)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "python3 -c 'import sys, "
		 "xml.etree.ElementTree as E\nt = [x.text for x in "
		 "E.parse(sys.argv[1]).iter(\"{http://www.w3.org/2000/svg}"
		 "title\")]\nsys.exit(not (any(sys.argv[2] in x for x in t) and "
		 "any(sys.argv[3] in x for x in t)))' %s %s %s", path, a, b);
	return system(cmd) == 0;
}

START_TEST(test_profile_ratio)
{
	static char out[1 << 20], err[4096];
	char pid[16], *const load[] = { STACKLOAD, "burn", "5", NULL };
	char svg[] = "/tmp/bbtest-profile-XXXXXX";
	struct proc l, p;
	unsigned long long three, one;
	double ratio;
	int fd = mkstemp(svg);

	ck_assert_int_ge(fd, 0);
	close(fd);
	spawn(&l, load);
	snprintf(pid, sizeof(pid), "%d", (int)l.pid);
	{
		char *const argv[] = { (char *)barebpf(), "profile", "-F",
				       "497", "-f", "--svg", svg, "-p", pid,
				       "3", NULL };

		spawn(&p, argv);
		read_until(p.out, out, sizeof(out), NULL, 20000);
		read_until(p.err, err, sizeof(err), NULL, 2000);
		ck_assert_msg(wait_exit(p.pid) == 0, "profile failed: %s", err);
	}
	kill(l.pid, SIGKILL);
	wait_exit(l.pid);
	three = folded_sum(out, ";spin_three");
	one = folded_sum(out, ";spin_one");
	ck_assert_msg(one > 50 && three > 150, "spin_three %llu, spin_one %llu "
		      "samples:\n%.2000s", three, one, out);
	ratio = (double)three / one;
	ck_assert_msg(ratio > 2.4 && ratio < 3.6, "spin_three:spin_one is "
		      "%.2f (%llu:%llu), not 3 within 20%%", ratio, three, one);
	/* only the process asked for */
	ck_assert_int_eq(folded_sum(out, ""), folded_sum(out, "stackload"));
	ck_assert_msg(svg_names(svg, "spin_three", "spin_one"),
		      "%s: not XML, or without both functions", svg);
	unlink(svg);
}
END_TEST

/* The CPU time (ns) the thread pid has run, from /proc/PID/schedstat. */
static double cpu_secs(pid_t pid)
{
	char path[64], buf[128];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	if (fgets(buf, sizeof(buf), f))
		ns = strtoull(buf, NULL, 10);
	fclose(f);
	return ns / 1e9;
}

/*
 * profile -F 499 -p PID 1 of a process burning a CPU: the samples cover
 * the duration from when the tool says "Sampling", and no more. Each
 * sample of a single-threaded busy process is 1/499 s of its CPU time, so
 * the samples can be at most 499 x (its CPU time from the "Sampling" line
 * to the tool's exit, and at most the 1 s asked), within 10 %; at least
 * 499 x what it ran within the second, in all (its CPU time less the
 * wall time past the second), within 25 % (a busy host shares the CPU
 * with it unevenly). The tool once enabled sampling some 200 ms (the
 * kernel's symbol table read) before its duration began: 20 % too many.
 */
START_TEST(test_profile_window)
{
	static char out[1 << 20];
	char err[4096], pid[16];
	char *const load[] = { STACKLOAD, "burn", "20", NULL };
	const double hz = 499, secs = 1;
	double c0, c1, t0, t1, most, least;
	unsigned long long n;
	struct proc l, p;

	spawn(&l, load);
	snprintf(pid, sizeof(pid), "%d", (int)l.pid);
	usleep(200000);
	{
		char *const argv[] = { (char *)barebpf(), "profile", "-F",
				       "499", "-f", "-p", pid, "1", NULL };

		spawn(&p, argv);
		read_until(p.err, err, sizeof(err), "Sampling", 20000);
		c0 = cpu_secs(l.pid);
		t0 = mono();
		ck_assert_msg(strstr(err, "Sampling"), "no start: %s", err);
		read_until(p.out, out, sizeof(out), NULL, 20000);
		ck_assert_int_eq(wait_exit(p.pid), 0);
		c1 = cpu_secs(l.pid);
		t1 = mono();
	}
	kill(l.pid, SIGKILL);
	wait_exit(l.pid);
	n = folded_sum(out, "");
	most = hz * (c1 - c0 < secs ? c1 - c0 : secs);
	least = hz * (c1 - c0 - (t1 - t0 - secs));
	ck_assert_msg(n <= 1.1 * most + 3, "%llu samples, more than 499 x "
		      "%.3f s of CPU (%.3f s in %.3f s since the start)", n,
		      most / hz, c1 - c0, t1 - t0);
	ck_assert_msg(n >= 0.75 * least - 3, "%llu samples, under 499 x "
		      "%.3f s of CPU in the second (%.3f s in %.3f s)", n,
		      least / hz, c1 - c0, t1 - t0);
}
END_TEST

/*
 * The first record of out printed twice, its count apart (NULL: none):
 * records end at sep ("\n": folded and JSON lines; "\n\n": bcc's
 * multi-line stacks), and their count starts after the last cut within
 * them (' ' folded, ',' JSON, '\n' a stack). The first in *dup.
 */
static int printed_twice(const char *out, const char *sep, char cut,
			 char *dup, size_t len)
{
	const char *a, *b, *ea, *eb;
	size_t sl = strlen(sep);

	for (a = out + strspn(out, "\n"); *a; a = ea + sl) {
		const char *ca, *cb;

		ea = strstr(a, sep);
		if (!ea)
			break;
		ca = a;
		for (const char *q = a; q < ea; q++)
			if (*q == cut)
				ca = q;
		for (b = ea + sl; *b; b = eb + sl) {
			eb = strstr(b, sep);
			if (!eb)
				break;
			cb = b;
			for (const char *q = b; q < eb; q++)
				if (*q == cut)
					cb = q;
			if (ca - a == cb - b && !memcmp(a, b, ca - a)) {
				snprintf(dup, len, "%.*s", (int)(ea - a), a);
				return 1;
			}
		}
	}
	return 0;
}

/*
 * The stacks profile prints are each printed once, in text, folded and
 * JSON: the kernel makes a stack id of each list of addresses, and the
 * many addresses sampled in a busy function print as one name (the tool
 * once printed `...;spin_three;spin 734`, then `... 145`, `... 114`).
 */
START_TEST(test_profile_merged)
{
	static char out[1 << 20];
	static const struct { const char *opt, *sep; char cut; } f[] = {
		{ "-f", "\n", ' ' }, { "-j", "\n", ',' }, { "-d", "\n\n", '\n' },
	};
	char err[4096], pid[16], dup[4096];
	char *const load[] = { STACKLOAD, "burn", "20", NULL };
	struct proc l;
	size_t i;

	spawn(&l, load);
	snprintf(pid, sizeof(pid), "%d", (int)l.pid);
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		char *const argv[] = { (char *)barebpf(), "profile", "-F",
				       "499", (char *)f[i].opt, "-p", pid,
				       "1", NULL };

		ck_assert_int_eq(run(argv, out, sizeof(out), err,
				     sizeof(err)), 0);
		ck_assert_msg(strstr(out, "spin_three"), "%s: %s", f[i].opt,
			      out);
		ck_assert_msg(!printed_twice(out, f[i].sep, f[i].cut, dup,
					     sizeof(dup)),
			      "profile %s printed twice:\n%s", f[i].opt, dup);
	}
	kill(l.pid, SIGKILL);
	wait_exit(l.pid);
}
END_TEST

/* A field of /proc/PID/status in KiB ("VmHWM"), or 0. */
static unsigned long status_kib(pid_t pid, const char *field)
{
	char path[64], line[256];
	unsigned long v = 0;
	size_t fl = strlen(field);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, fl) && line[fl] == ':')
			v = strtoul(line + fl + 1, NULL, 10);
	fclose(f);
	return v;
}

/*
 * What profile costs while it samples: its peak RSS from start to its
 * "Sampling" line, and a second on, under 1.5 MiB (the other tools take
 * 600 KiB): the kernel's symbols are read when the stacks are printed,
 * and then only those of the stacks' addresses. It took 9.7 MB, the whole
 * of /proc/kallsyms read and sorted before sampling began (and 130 ms).
 * The kernel frames are named all the same (do_idle, with -I).
 */
START_TEST(test_profile_rss)
{
	static char out[1 << 20];
	char err[4096];
	char *const argv[] = { (char *)barebpf(), "profile", "-F", "99",
			       "-I", "-K", "-f", "2", NULL };
	unsigned long hwm;
	struct proc p;

	spawn(&p, argv);
	read_until(p.err, err, sizeof(err), "Sampling", 20000);
	ck_assert_msg(strstr(err, "Sampling"), "no start: %s", err);
	usleep(1000000);
	hwm = status_kib(p.pid, "VmHWM");
	read_until(p.out, out, sizeof(out), NULL, 20000);
	ck_assert_int_eq(wait_exit(p.pid), 0);
	ck_assert_msg(hwm > 0 && hwm < 1536, "peak RSS while sampling: %lu "
		      "KiB", hwm);
	ck_assert_msg(strstr(out, ";do_idle_[k]"), "no idle stack named:\n"
		      "%.2000s", out);
}
END_TEST

/*
 * The load stripped as Fedora's find-debuginfo strips a package: no
 * .symtab, its functions only in .gnu_debugdata (MiniDebugInfo, an
 * xz-compressed ELF with the .symtab that .dynsym lacks). profile names
 * spin_three and spin_one from there (without it: [unknown]).
 */
START_TEST(test_profile_minidebuginfo)
{
	static char out[1 << 20], err[4096];
	static const char script[] =
		"set -e; f=$1; d=$f.d; rm -rf $d; mkdir $d\n"
		"nm -D $f --format=posix --defined-only | awk '{ print $1 }' "
		"| sort >$d/dyn\n"
		"nm $f --format=posix --defined-only | awk '$2 ~ /^[TtD]$/ "
		"{ print $1 }' | sort >$d/funcs\n"
		"comm -13 $d/dyn $d/funcs >$d/keep\n"
		"objcopy --only-keep-debug $f $d/debug\n"
		"objcopy -S --remove-section .gdb_index --remove-section "
		".comment --keep-symbols=$d/keep $d/debug $d/mini\n"
		"xz --format=xz --check=crc64 -c $d/mini >$d/mini.xz\n"
		"cp $f $f-mdi\n"
		"strip --strip-all -R .comment $f-mdi\n"
		"objcopy --add-section .gnu_debugdata=$d/mini.xz $f-mdi\n"
		"rm -rf $d\n";
	char pid[16], cmd[2048];
	char *const load[] = { STACKLOAD "-mdi", "burn", "4", NULL };
	struct proc l, p;
	unsigned long long three, one;

	{
		char path[] = BB_BUILD_DIR "/tests/mdi.sh";
		FILE *f = fopen(path, "w");

		ck_assert_ptr_nonnull(f);
		fputs(script, f);
		fclose(f);
		snprintf(cmd, sizeof(cmd), "sh %s %s", path, STACKLOAD);
	}
	ck_assert_msg(system(cmd) == 0, "%s failed (binutils, xz-utils?)", cmd);
	ck_assert_int_ne(system("readelf -S " STACKLOAD "-mdi | "
				"grep -q '\\.symtab'"), 0);
	spawn(&l, load);
	snprintf(pid, sizeof(pid), "%d", (int)l.pid);
	{
		char *const argv[] = { (char *)barebpf(), "profile", "-F",
				       "197", "-f", "-p", pid, "2", NULL };

		spawn(&p, argv);
		read_until(p.out, out, sizeof(out), NULL, 20000);
		read_until(p.err, err, sizeof(err), NULL, 2000);
		ck_assert_msg(wait_exit(p.pid) == 0, "profile failed: %s", err);
	}
	kill(l.pid, SIGKILL);
	wait_exit(l.pid);
	three = folded_sum(out, ";spin_three");
	one = folded_sum(out, ";spin_one");
	ck_assert_msg(one > 10 && three > 30, "spin_three %llu, spin_one %llu "
		      "samples:\n%.2000s", three, one, out);
}
END_TEST

/*
 * A library stripped of its .symtab, its symbols in a separate debug file:
 * Debian's libc6, with libc6-dbg (/usr/lib/debug/.build-id/xx/rest.debug).
 * The frame below main, in glibc's static __libc_start_call_main, is named
 * (it was [unknown], .dynsym alone holding no such name). SKIP where the
 * load's libc has no such debug file, or no such function.
 */
START_TEST(test_profile_libc_debug)
{
	static char out[1 << 20];
	char err[4096], pid[16], cmd[1024];
	char *const load[] = { STACKLOAD, "burn", "3", NULL };
	struct proc l, p;

	snprintf(cmd, sizeof(cmd), "lib=$(ldd %s | awk '/libc\\.so/ "
		 "{ print $3 }'); id=$(readelf -n \"$lib\" | sed -n "
		 "'s/.*Build ID: //p'); f=/usr/lib/debug/.build-id/"
		 "$(echo $id | cut -c1-2)/$(echo $id | cut -c3-).debug; "
		 "nm \"$f\" 2>/dev/null | grep -q ' __libc_start_call_main$' "
		 "&& ! nm \"$lib\" 2>/dev/null | grep -q .", STACKLOAD);
	if (sh(cmd, out, sizeof(out)) != 0)
		bbtest_skip("no debug file of %s's libc with "
			    "__libc_start_call_main, or a libc not stripped "
			    "(apt-get install libc6-dbg)", STACKLOAD);
	spawn(&l, load);
	snprintf(pid, sizeof(pid), "%d", (int)l.pid);
	{
		char *const argv[] = { (char *)barebpf(), "profile", "-F",
				       "199", "-f", "-U", "-p", pid, "1",
				       NULL };

		spawn(&p, argv);
		read_until(p.out, out, sizeof(out), NULL, 20000);
		read_until(p.err, err, sizeof(err), NULL, 2000);
		ck_assert_msg(wait_exit(p.pid) == 0, "profile failed: %s", err);
	}
	kill(l.pid, SIGKILL);
	wait_exit(l.pid);
	ck_assert_msg(folded_sum(out, ";__libc_start_call_main;main;burn;") >
		      folded_sum(out, ";[unknown];main;burn;"),
		      "main's caller not named from libc's debug file:\n%.2000s",
		      out);
}
END_TEST

/*
 * The flame graph in a real browser (headless chromium, where installed):
 * it loads without a JavaScript error, draws both functions, zooms on a
 * click, resets, and searches (tests/tools/fgbrowser.py says how).
 */
START_TEST(test_profile_svg_browser)
{
	static char out[1 << 16], err[4096];
	char pid[16], cmd[512], *const load[] = { STACKLOAD, "burn", "4", NULL };
	char svg[] = "/tmp/bbtest-profile-XXXXXX";
	struct proc l, p;
	int fd, st;

	if (access("/usr/bin/chromium", X_OK))
		bbtest_skip("no /usr/bin/chromium (apt-get install chromium)");
	fd = mkstemp(svg);
	ck_assert_int_ge(fd, 0);
	close(fd);
	spawn(&l, load);
	snprintf(pid, sizeof(pid), "%d", (int)l.pid);
	{
		char *const argv[] = { (char *)barebpf(), "profile", "-F",
				       "199", "--svg", svg, "-p", pid, "2",
				       NULL };

		spawn(&p, argv);
		read_until(p.out, out, sizeof(out), NULL, 20000);
		read_until(p.err, err, sizeof(err), NULL, 2000);
		ck_assert_msg(wait_exit(p.pid) == 0, "profile failed: %s", err);
	}
	kill(l.pid, SIGKILL);
	wait_exit(l.pid);
	snprintf(cmd, sizeof(cmd), "python3 tests/tools/fgbrowser.py %s "
		 "spin_three spin_one", svg);
	st = sh(cmd, out, sizeof(out));
	unlink(svg);
	ck_assert_msg(st == 0, "the flame graph in chromium:\n%s", out);
}
END_TEST

/*
 * offcputime -f -p of `stackload nap`, started once offcputime is: about
 * 2.0 s of nanosleep stacks and 1.0 s of pipe-read stacks, within 20 % of
 * what the process measured of each part itself (more than 2.0 and 1.0 s
 * where the CI's guests keep the CPUs busy: a woken task waits for a CPU,
 * and that wait is off-CPU time too).
 */
START_TEST(test_offcputime_naps)
{
	static char out[1 << 20], err[4096], self[256];
	char pid[16];
	int in[2], lo[2];
	struct proc p;
	pid_t l;
	double sleep_us, pipe_us, want_sleep = 0, want_pipe = 0;

	ck_assert_int_eq(pipe(in), 0);
	ck_assert_int_eq(pipe(lo), 0);
	l = fork();
	ck_assert_int_ge(l, 0);
	if (!l) {
		dup2(in[0], 0);
		dup2(lo[1], 1);
		close(in[1]);
		close(lo[0]);
		execl(STACKLOAD, STACKLOAD, "nap", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(lo[1]);
	snprintf(pid, sizeof(pid), "%d", (int)l);
	{
		char *const argv[] = { (char *)barebpf(), "offcputime", "-f",
				       "-p", pid, "6", NULL };

		spawn(&p, argv);
		read_until(p.err, err, sizeof(err), "Tracing", 20000);
		ck_assert_msg(strstr(err, "Tracing off-CPU time (us) of PID"),
			      "offcputime did not start: %s", err);
		ck_assert_int_eq(write(in[1], "go\n", 3), 3);
		read_until(lo[0], self, sizeof(self), NULL, 20000);
		ck_assert_int_eq(wait_exit(l), 0);
		read_until(p.out, out, sizeof(out), NULL, 20000);
		ck_assert_int_eq(wait_exit(p.pid), 0);
	}
	close(in[1]);
	close(lo[0]);
	ck_assert_int_eq(sscanf(self, "sleep_us=%lf pipe_us=%lf", &want_sleep,
				&want_pipe), 2);
	/* the parts themselves: 20 x 100 ms and 10 x 100 ms, or longer */
	ck_assert(want_sleep >= 2000000 && want_pipe >= 950000);
	sleep_us = folded_sum(out, "nanosleep");
	/* pipe_read, anon_pipe_read (6.x) */
	pipe_us = folded_sum(out, "pipe_read");
	ck_assert_msg(sleep_us > 0.8 * want_sleep && sleep_us < 1.2 * want_sleep,
		      "nanosleep stacks: %.0f us, the naps took %.0f us:\n"
		      "%.3000s", sleep_us, want_sleep, out);
	ck_assert_msg(pipe_us > 0.8 * want_pipe && pipe_us < 1.2 * want_pipe,
		      "pipe-read stacks: %.0f us, the reads took %.0f us:\n"
		      "%.3000s", pipe_us, want_pipe, out);
	/* no stack lost: the stack map holds only the stacks of the
	 * threads traced, not those of every task switching on the system
	 * (which made collisions, -EEXIST, on a busy machine) */
	ck_assert_msg(!strstr(out, "[Missed"), "stacks missed:\n%.3000s", out);
	/* the user side named too, through the binary's symbols */
	ck_assert_msg(strstr(out, ";nap;") || strstr(out, ";nap_"),
		      "no user frame of stackload named:\n%.3000s", out);
}
END_TEST

/* A full counts map: the samples it could not take are said, not lost in
 * silence (by tool_detach, as for the other tools: profile's events are
 * the session's). */
START_TEST(test_profile_full_map)
{
	static char out[1 << 16], err[4096];
	char *const load[] = { STACKLOAD, "burn", "3", NULL };
	char *const argv[] = { (char *)barebpf(), "profile", "-F", "197",
			       "-f", "--hash-storage-size", "1", "1", NULL };
	struct proc l;

	spawn(&l, load);
	ck_assert_int_eq(run(argv, out, sizeof(out), err, sizeof(err)), 0);
	kill(l.pid, SIGKILL);
	wait_exit(l.pid);
	/* one key fits; stackload alone makes more than one stack */
	ck_assert_msg(strchr(out, '\n') == strrchr(out, '\n'),
		      "more than one line:\n%s", out);
	ck_assert_msg(strstr(err, "not counted: a map of the BPF program was "
				  "full"), "no warning: %s", err);
}
END_TEST

START_TEST(test_bad_args)
{
	char out[4096], err[4096];
	char *const a[] = { (char *)barebpf(), "profile", "-U", "-K", "1",
			    NULL };
	char *const b[] = { (char *)barebpf(), "offcputime", "-p", "1", "-t",
			    "1", "1", NULL };
	char *const c[] = { (char *)barebpf(), "offcputime", "-m", "10", "-M",
			    "5", "1", NULL };
	char *const d[] = { (char *)barebpf(), "profile", "-K", "--build-id",
			    "1", NULL };
	/* build-id stacks at sched_switch could deadlock before 4.19.92 */
	char *const e[] = { (char *)barebpf(), "offcputime", "--build-id",
			    "--kern-version", "4.19.0", "1", NULL };
	char *const f[] = { (char *)barebpf(), "offcputime", "-M", "0", "1",
			    NULL };
	char *const g[] = { (char *)barebpf(), "offcputime", "-m", "0", "1",
			    NULL };

	ck_assert_int_eq(run(a, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_ptr_nonnull(strstr(err, "-U and -K"));
	ck_assert_int_eq(run(b, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_ptr_nonnull(strstr(err, "exclude each other"));
	ck_assert_int_eq(run(c, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_ptr_nonnull(strstr(err, "-m is above -M"));
	ck_assert_int_eq(run(d, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_ptr_nonnull(strstr(err, "--build-id names user frames"));
	ck_assert_int_eq(run(e, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "--build-id: refused on 4.19.0"), "%s", err);
	/* -M 0 is no maximum nowhere: refused, as bcc refuses it */
	ck_assert_int_eq(run(f, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "-M 0: the time must be above 0") &&
		      strstr(err, "leave -M out"), "%s", err);
	ck_assert_int_eq(run(g, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "-m 0: the time must be above 0"), "%s", err);
}
END_TEST

/*
 * A CPU that cannot be sampled fails profile, saying which and why, as
 * `run` does (session_attach_sampling): a rate above
 * kernel.perf_event_max_sample_rate, refused on every CPU. (Only an
 * offline CPU is skipped; profile once dropped any CPU that failed,
 * silently while one was left.)
 */
START_TEST(test_profile_cpu_refused)
{
	char out[4096], err[4096];
	char *const argv[] = { (char *)barebpf(), "profile", "-F",
			       "1000000000", "1", NULL };

	ck_assert_int_eq(run(argv, out, sizeof(out), err, sizeof(err)), 1);
	ck_assert_msg(strstr(err, "cannot sample CPU 0 at 1000000000 Hz") &&
		      strstr(err, "perf_event_max_sample_rate"), "%s", err);
}
END_TEST

static const char *need_load(void)
{
	const char *why = need_root_and_tools();

	if (why)
		return why;
	if (access(STACKLOAD, X_OK))
		return "no " STACKLOAD " (make " STACKLOAD ")";
	return NULL;
}

static Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_profile_ratio);
	tcase_add_test(tc, test_profile_window);
	tcase_add_test(tc, test_profile_merged);
	tcase_add_test(tc, test_profile_rss);
	tcase_add_test(tc, test_profile_minidebuginfo);
	tcase_add_test(tc, test_profile_libc_debug);
	tcase_add_test(tc, test_profile_svg_browser);
	tcase_add_test(tc, test_offcputime_naps);
	tcase_add_test(tc, test_profile_full_map);
	tcase_add_test(tc, test_profile_cpu_refused);
	tcase_add_test(tc, test_profile_exited);
	tcase_add_test(tc, test_offcputime_exited);
	tcase_add_test(tc, test_bad_args);
	suite_add_tcase(s, tc);
	return s;
}

BBTEST_SUITE(profile, profile_suite, need_load)
