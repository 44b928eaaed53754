/* SPDX-License-Identifier: MIT */
/*
 * The uprobe lookup by name (elflookup.c) on any file: what `trace
 * p:/path:func` and `funccount 'lib:*'` read. Every name reported is a
 * non-empty string matching the glob, at an offset inside the file.
 */
#include <fnmatch.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz.h"
#include "barebpf.h"
#include "user.h"

static size_t file_size;

static int check(void *ctx, const char *name, uint64_t foff)
{
	FUZZ_ASSERT(name[0]);
	FUZZ_ASSERT(!fnmatch((const char *)ctx, name, 0));
	FUZZ_ASSERT(foff < file_size);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	file_size = size;
	elfsyms_lookup_fd(fd, "*", check, "*");
	elfsyms_lookup_fd(fd, "ma?n", check, "ma?n");
	close(fd);
	return 0;
}
