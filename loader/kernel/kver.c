/* SPDX-License-Identifier: MIT */
/*
 * LINUX_VERSION_CODE of the running kernel. Until 5.0 the kernel refuses a
 * kprobe program whose kern_version differs from its own, and `uname -r` is
 * not enough: Ubuntu's "4.15.0-112-generic" is really 4.15.18 and Debian's
 * "4.19.0-8-amd64" is 4.19.98. The kernel itself publishes the code in an
 * ELF note of the vDSO, so that comes first; the distribution strings are
 * fallbacks for a vDSO without the note.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "barebpf.h"
#include "kernel.h"

/*
 * The ELF structures we read, spelled out: the vDSO layout is fixed by the
 * ELF specification, and this file then needs no <elf.h> (see
 * AT_SYSINFO_EHDR below).
 */
struct vdso_ehdr {
	unsigned char ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct vdso_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

struct vdso_nhdr {
	uint32_t namesz, descsz, type;
};

#define VDSO_PT_LOAD 1
#define VDSO_PT_NOTE 4
#define VDSO_ELFCLASS64 2
/* <sys/auxv.h> takes it from <elf.h>, which musl's include path loses. */
#ifndef AT_SYSINFO_EHDR
#define AT_SYSINFO_EHDR 33
#endif

static int vdso_ehdr_ok(const struct vdso_ehdr *eh)
{
	return !memcmp(eh->ident, "\177ELF", 4) &&
	       eh->ident[4] == VDSO_ELFCLASS64 &&
	       eh->phentsize == sizeof(struct vdso_phdr);
}

static int parse_uint(const char **sp, unsigned long *v)
{
	const char *s = *sp;
	unsigned long n = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		n = n * 10 + (*s++ - '0');
		if (n > 0xffffff)
			return -EINVAL;
	}
	*sp = s;
	*v = n;
	return 0;
}

/*
 * "a.b[.c]" at s; the sublevel is optional ("6.1-rc3") and clamped at 255
 * like the kernel's own KERNEL_VERSION (4.9.337 is 0x0409ff). Returns
 * where the version ends, or NULL.
 */
static const char *parse_abc(const char *s, uint32_t *code, int *has_c)
{
	unsigned long a, b, c = 0;

	*has_c = 0;
	if (parse_uint(&s, &a) < 0 || *s++ != '.' || parse_uint(&s, &b) < 0)
		return NULL;
	if (*s == '.') {
		s++;
		if (parse_uint(&s, &c) < 0)
			return NULL;
		*has_c = 1;
	}
	if (a == 0 || a > 255 || b > 255)
		return NULL;
	*code = KVER(a, b, c);
	return s;
}

int kver_parse_release(const char *release, uint32_t *code)
{
	int has_c;

	return parse_abc(release, code, &has_c) ? 0 : -EINVAL;
}

/*
 * /proc/version_signature: "Ubuntu 4.15.0-112.113-generic 4.15.18". The
 * last token is the upstream version the Ubuntu kernel is based on, which is
 * what its LINUX_VERSION_CODE says.
 */
int kver_parse_ubuntu_signature(const char *sig, uint32_t *code)
{
	const char *end = sig + strlen(sig), *start, *stop;
	int has_c;

	while (end > sig && (end[-1] == '\n' || end[-1] == ' ' ||
			     end[-1] == '\t'))
		end--;
	start = end;
	while (start > sig && start[-1] != ' ' && start[-1] != '\t')
		start--;
	if (start == sig) /* need "<something> <version>" */
		return -EINVAL;
	/* The whole token must be x.y.z, not "4.15.0-112-generic". */
	stop = parse_abc(start, code, &has_c);
	return stop == end && has_c ? 0 : -EINVAL;
}

/*
 * Debian puts the package version in uname -v:
 * "#1 SMP Debian 4.19.98-1 (2020-01-26)",
 * "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)",
 * "#1 SMP Debian 4.9.210-1+deb9u1 (2020-01-20)".
 */
int kver_parse_debian_uname_v(const char *uname_v, uint32_t *code)
{
	const char *p = uname_v, *hit;

	while ((hit = strstr(p, "Debian ")) != NULL) {
		const char *v = hit + strlen("Debian ");
		int has_c;

		if (parse_abc(v, code, &has_c) && has_c)
			return 0;
		p = v;
	}
	return -EINVAL;
}

/*
 * The vDSO carries an ELF note named "Linux", type 0, whose descriptor is
 * the u32 LINUX_VERSION_CODE the kernel was built with (Ubuntu patches it to
 * the real upstream sublevel). Everything read is bounds-checked against
 * len: the image is memory we did not write.
 */
static int note_find_version(const unsigned char *p, size_t len,
			     uint32_t *code)
{
	size_t off = 0;

	while (len - off >= sizeof(struct vdso_nhdr)) {
		struct vdso_nhdr nh;
		size_t name_sz, desc_sz, name_off, desc_off;

		memcpy(&nh, p + off, sizeof(nh));
		/* Name and descriptor are each padded to 4 bytes. */
		name_sz = ((size_t)nh.namesz + 3) & ~(size_t)3;
		desc_sz = ((size_t)nh.descsz + 3) & ~(size_t)3;
		name_off = off + sizeof(nh);
		if (name_sz > len - name_off)
			return -EINVAL;
		desc_off = name_off + name_sz;
		if (desc_sz > len - desc_off)
			return -EINVAL;
		if (nh.type == 0 && nh.namesz == 6 &&
		    !memcmp(p + name_off, "Linux", 6) && nh.descsz >= 4) {
			uint32_t v;

			memcpy(&v, p + desc_off, 4);
			if (v == 0)
				return -EINVAL;
			*code = v;
			return 0;
		}
		off = desc_off + desc_sz;
	}
	return -ENOENT;
}

int kver_parse_vdso_note(const void *vdso, size_t len, uint32_t *code)
{
	const unsigned char *p = vdso;
	struct vdso_ehdr eh;
	size_t i;
	int ret;

	if (!p || len < sizeof(eh))
		return -EINVAL;
	memcpy(&eh, p, sizeof(eh));
	if (!vdso_ehdr_ok(&eh))
		return -EINVAL;
	if (eh.phoff > len ||
	    (size_t)eh.phnum > (len - eh.phoff) / sizeof(struct vdso_phdr))
		return -EINVAL;
	for (i = 0; i < eh.phnum; i++) {
		struct vdso_phdr ph;

		memcpy(&ph, p + eh.phoff + i * sizeof(ph), sizeof(ph));
		if (ph.type != VDSO_PT_NOTE)
			continue;
		if (ph.offset > len || ph.filesz > len - ph.offset)
			return -EINVAL;
		ret = note_find_version(p + ph.offset, ph.filesz, code);
		if (ret != -ENOENT)
			return ret;
	}
	return -ENOENT;
}

/*
 * How much of the vDSO we may read: the extent of its PT_LOAD segments. The
 * ELF and program headers sit at the start of its first page, which is
 * mapped for sure.
 */
static size_t vdso_len(const unsigned char *p)
{
	struct vdso_ehdr eh;
	size_t i, len = 0, page = 4096;

	memcpy(&eh, p, sizeof(eh));
	if (!vdso_ehdr_ok(&eh) || eh.phoff > page ||
	    eh.phnum > (page - eh.phoff) / sizeof(struct vdso_phdr))
		return 0;
	for (i = 0; i < eh.phnum; i++) {
		struct vdso_phdr ph;

		memcpy(&ph, p + eh.phoff + i * sizeof(ph), sizeof(ph));
		if (ph.type == VDSO_PT_LOAD && ph.offset < (1 << 20) &&
		    ph.filesz < (1 << 20) && ph.offset + ph.filesz > len)
			len = ph.offset + ph.filesz;
	}
	return len;
}

static int read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = 0;
	return n;
}

/* "4.15.18", or a code as a number: "0x040f12", "265999". */
static int parse_user_version(const char *s, uint32_t *code)
{
	char *end;
	unsigned long v;

	if (strchr(s, '.')) {
		const char *stop;
		int has_c;

		stop = parse_abc(s, code, &has_c);
		return stop && !*stop ? 0 : -EINVAL;
	}
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v == 0 || v > 0xffffff)
		return -EINVAL;
	*code = v;
	return 0;
}

static void set_source(char *source, size_t srclen, const char *what)
{
	if (source && srclen) {
		strncpy(source, what, srclen - 1);
		source[srclen - 1] = 0;
	}
}

int kver_detect(const char *override, uint32_t *code, char *source,
		size_t srclen, struct bb_err *err)
{
	const char *env = getenv("BAREBPF_KERN_VERSION");
	unsigned long vdso = getauxval(AT_SYSINFO_EHDR);
	struct utsname u;
	char buf[256];

	if (override) {
		if (parse_user_version(override, code) < 0)
			return bb_fail(err, -EINVAL,
				       "invalid kernel version '%s': give "
				       "x.y.z (4.15.18) or a LINUX_VERSION_CODE "
				       "(0x040f12)", override);
		set_source(source, srclen, "override");
		return 0;
	}
	if (env && *env) {
		if (parse_user_version(env, code) < 0)
			return bb_fail(err, -EINVAL,
				       "invalid BAREBPF_KERN_VERSION '%s': give "
				       "x.y.z (4.15.18) or a LINUX_VERSION_CODE "
				       "(0x040f12)", env);
		set_source(source, srclen, "$BAREBPF_KERN_VERSION");
		return 0;
	}
	if (vdso) {
		const void *p = (const void *)vdso;
		size_t len = vdso_len(p);

		if (len && kver_parse_vdso_note(p, len, code) == 0) {
			set_source(source, srclen, "vDSO note");
			return 0;
		}
	}
	if (read_small("/proc/version_signature", buf, sizeof(buf)) > 0 &&
	    kver_parse_ubuntu_signature(buf, code) == 0) {
		set_source(source, srclen, "/proc/version_signature");
		return 0;
	}
	if (uname(&u) < 0) {
		int e = errno;

		return bb_fail(err, -e, "uname: %s", strerror(e));
	}
	if (kver_parse_debian_uname_v(u.version, code) == 0) {
		set_source(source, srclen, "uname -v (Debian)");
		return 0;
	}
	if (kver_parse_release(u.release, code) == 0) {
		set_source(source, srclen, "uname -r");
		return 0;
	}
	return bb_fail(err, -EINVAL,
		       "cannot tell the kernel version (uname -r '%s'): set "
		       "BAREBPF_KERN_VERSION=x.y.z", u.release);
}
