/* SPDX-License-Identifier: MIT */
/*
 * The user side of a BPF_MAP_TYPE_PERF_EVENT_ARRAY: one perf ring per CPU
 * (ringbuf maps are 5.8; 4.15 only has this). The BPF program writes with
 * bpf_perf_event_output(ctx, &map, BPF_F_CURRENT_CPU, ...), which lands in
 * the ring whose fd we stored at the current CPU's index.
 *
 * Each ring is a control page followed by 2^n data pages. The kernel
 * advances data_head after writing a record; we read records between
 * data_tail and data_head and then store data_tail, which is what lets the
 * kernel reuse the space. When the ring is full the kernel drops samples
 * and later writes one PERF_RECORD_LOST with their count.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "barebpf.h"
#include "perfbuf.h"

/* a quarter of the 64 pages rings had before they scaled with memory */
#define PERFBUF_WATERMARK (64 * 1024)

struct perfbuf_ring {
	int cpu;
	int fd;
	void *base; /* control page, data pages follow */
	size_t ring_size; /* data pages * page_size */
	/* the ring this one replaced when it grew: drained until closed, as
	 * a program that looked up the old one may still be writing it */
	int old_fd;
	void *old_base;
	size_t old_size;
};

struct bb_perfbuf {
	perfbuf_sample_fn fn;
	void *ctx;
	int map_fd;
	size_t page_size;
	size_t ring_size;  /* pages * page_size, the rings' first size */
	size_t grow_size;  /* what the rings grow to at the first polls, or 0 */
	int grown;         /* the rings grown so far */
	int nrings;
	struct perfbuf_ring *rings;
	struct pollfd *pfds;
	void *scratch;
	uint64_t lost;
};

/* Copy len bytes starting at free-running position pos out of the ring. */
static void ring_copy(void *dst, const uint8_t *ring, size_t ring_size,
		      uint64_t pos, size_t len)
{
	size_t off = pos & (ring_size - 1), first = ring_size - off;

	if (len <= first) {
		memcpy(dst, ring + off, len);
	} else {
		memcpy(dst, ring + off, first);
		memcpy((uint8_t *)dst + first, ring, len - first);
	}
}

int perfbuf_ring_consume(const void *ring, size_t ring_size, uint64_t *tail,
			 uint64_t head, void *scratch, int cpu,
			 perfbuf_sample_fn fn, void *ctx, uint64_t *lost)
{
	const uint8_t *base = ring;
	uint64_t pos = *tail;
	int n = 0;

	if (head - pos > ring_size)
		goto bad;
	while (pos != head) {
		struct perf_event_header hdr;
		size_t off = pos & (ring_size - 1);
		const uint8_t *rec;

		if (head - pos < sizeof(hdr))
			goto bad;
		/* records are 8-aligned: a header never wraps, and a copy of
		 * constant size is inlined (musl's memcpy call sets up a `rep
		 * movs`: a tenth of a streamed event's time) */
		if (off + sizeof(hdr) <= ring_size)
			memcpy(&hdr, base + off, sizeof(hdr));
		else
			ring_copy(&hdr, base, ring_size, pos, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size > head - pos)
			goto bad;

		/* only a record that wraps is copied; most are used in place */
		if (off + hdr.size <= ring_size) {
			rec = base + off;
		} else {
			ring_copy(scratch, base, ring_size, pos, hdr.size);
			rec = scratch;
		}

		if (hdr.type == PERF_RECORD_SAMPLE) {
			uint32_t raw_size;

			/* sample_type is PERF_SAMPLE_RAW alone: u32 size, data */
			if (hdr.size < sizeof(hdr) + sizeof(raw_size))
				goto bad;
			memcpy(&raw_size, rec + sizeof(hdr), sizeof(raw_size));
			if (raw_size > hdr.size - sizeof(hdr) - sizeof(raw_size))
				goto bad;
			if (fn)
				fn(ctx, cpu, rec + sizeof(hdr) + sizeof(raw_size),
				   raw_size);
			n++;
		} else if (hdr.type == PERF_RECORD_LOST) {
			uint64_t cnt;

			/* u64 id, u64 lost */
			if (hdr.size < sizeof(hdr) + 2 * sizeof(uint64_t))
				goto bad;
			memcpy(&cnt, rec + sizeof(hdr) + sizeof(uint64_t),
			       sizeof(cnt));
			*lost += cnt;
		}
		pos += hdr.size;
		*tail = pos;
	}
	return n;

bad:
	*tail = head;
	return -EBADMSG;
}

/* The kernel may be writing the ring while we read: see the comment on
 * perf_event_mmap_page::data_head in include/uapi/linux/perf_event.h. */
static int ring_drain(struct bb_perfbuf *pb, void *base, size_t ring_size,
		      int cpu)
{
	struct perf_event_mmap_page *mp = base;
	uint64_t head, tail;
	int n;

	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	tail = mp->data_tail;
	if (head == tail)
		return 0;
	n = perfbuf_ring_consume((uint8_t *)base + pb->page_size, ring_size,
				 &tail, head, pb->scratch, cpu, pb->fn,
				 pb->ctx, &pb->lost);
	/* release: our reads of the records happen before the kernel reuses
	 * the space */
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

/*
 * The map entry keeps the event alive until the map is closed (which clears
 * it). It is not deleted here: by now map_fd may have been closed and its
 * number reused for something else.
 */
static void ring_close(struct bb_perfbuf *pb, struct perfbuf_ring *r)
{
	sys_munmap(r->base, r->ring_size + pb->page_size);
	close(r->fd);
	if (r->old_base) {
		sys_munmap(r->old_base, r->old_size + pb->page_size);
		close(r->old_fd);
	}
}

/* A perf ring of size bytes for cpu, mapped, stored at cpu's index of the
 * map (the programs write to it from then on) and enabled, in r: 0; 1 for
 * a CPU that is offline; or -errno. */
static int ring_open(struct bb_perfbuf *pb, int cpu, size_t size,
		     struct perfbuf_ring *r, struct bb_err *err)
{
	size_t mmap_size = size + pb->page_size;
	struct perf_event_attr attr;
	long addr;
	int fd, ret;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_BPF_OUTPUT;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.sample_period = 1;
	/*
	 * Wake the reader once a quarter of the ring has filled, not on every
	 * record: a wake-up per record cost the traced task a context switch
	 * each time (a getppid() loop under trace kept 10% of its speed).
	 * Records short of the watermark wait for perfbuf_poll's timeout,
	 * at most PERFBUF_MAX_DELAY_MS. A large ring wakes at 64 KiB all the
	 * same: the rest of it is the slack for a reader that is late.
	 * wakeup_watermark shares a union with
	 * wakeup_events, selected by the watermark bit (both since 2.6.31).
	 */
	attr.flags = PERF_ATTR_FLAG_WATERMARK;
	attr.wakeup_events = size / 4 < PERFBUF_WATERMARK ? size / 4 :
			     PERFBUF_WATERMARK;
	fd = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	/* a possible but offline CPU: nothing runs there, nothing to read */
	if (fd == -ENODEV || fd == -EINVAL)
		return 1;
	if (fd < 0)
		return bb_fail(err, fd,
			       "perf_event_open(BPF_OUTPUT, cpu %d): %s", cpu,
			       strerror(-fd));

	addr = sys_mmap(NULL, mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			fd, 0);
	if (bb_is_err(addr)) {
		ret = bb_fail(err, addr,
			      "mmap of the perf ring of cpu %d (%zu bytes): %s%s",
			      cpu, mmap_size, strerror(-addr),
			      addr == -EPERM ? " (perf_event_mlock_kb is too "
					       "small for an unprivileged user?)"
					     : "");
		goto err_close;
	}

	/* enabled before it is stored: a ring that replaces another (it
	 * grew) must take records from the moment the programs see it */
	ret = sys_ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (ret < 0) {
		ret = bb_fail(err, ret, "enabling the ring of cpu %d: %s", cpu,
			      strerror(-ret));
		goto err_unmap;
	}

	ret = bpf_map_update_elem(pb->map_fd, &cpu, &fd, BPF_ANY);
	if (ret < 0) {
		ret = bb_fail(err, ret,
			      "storing the ring of cpu %d in the perf event "
			      "array: %s%s",
			      cpu, strerror(-ret),
			      ret == -E2BIG ? " (the map has fewer entries "
					      "than there are CPUs)"
					    : "");
		goto err_unmap;
	}

	r->cpu = cpu;
	r->fd = fd;
	r->base = (void *)addr;
	r->ring_size = size;
	return 0;

err_unmap:
	sys_munmap((void *)addr, mmap_size);
err_close:
	close(fd);
	return ret;
}

int perfbuf_open(struct bb_perfbuf **pbp, int map_fd, int pages_per_cpu,
		 perfbuf_sample_fn fn, void *ctx, struct bb_err *err)
{
	struct bb_perfbuf *pb;
	int ncpus, cpu, ret;

	if (pages_per_cpu <= 0 || (pages_per_cpu & (pages_per_cpu - 1)))
		return bb_fail(err, -EINVAL,
			       "perf ring size must be a power of two pages, "
			       "not %d", pages_per_cpu);
	ncpus = bb_ncpus_possible();
	if (ncpus < 0)
		return bb_fail(err, ncpus,
			       "cannot count CPUs (/sys/devices/system/cpu/"
			       "possible): %s", strerror(-ncpus));

	pb = calloc(1, sizeof(*pb));
	if (!pb)
		return bb_fail(err, -ENOMEM, "out of memory");
	pb->fn = fn;
	pb->ctx = ctx;
	pb->map_fd = map_fd;
	pb->page_size = sysconf(_SC_PAGESIZE);
	pb->ring_size = (size_t)pages_per_cpu * pb->page_size;
	pb->rings = calloc(ncpus, sizeof(*pb->rings));
	pb->pfds = calloc(ncpus, sizeof(*pb->pfds));
	pb->scratch = malloc(PERFBUF_SCRATCH_SIZE);
	if (!pb->rings || !pb->pfds || !pb->scratch) {
		ret = bb_fail(err, -ENOMEM, "out of memory");
		goto err_close;
	}

	for (cpu = 0; cpu < ncpus; cpu++) {
		struct perfbuf_ring *r = &pb->rings[pb->nrings];

		ret = ring_open(pb, cpu, pb->ring_size, r, err);
		if (ret < 0)
			goto err_close;
		if (ret)
			continue;
		pb->pfds[pb->nrings].fd = r->fd;
		pb->pfds[pb->nrings].events = POLLIN;
		pb->nrings++;
	}
	if (!pb->nrings) {
		ret = bb_fail(err, -ENODEV,
			      "perf_event_open(BPF_OUTPUT) failed on every CPU");
		goto err_close;
	}
	*pbp = pb;
	return 0;

err_close:
	perfbuf_close(pb);
	return ret;
}

void perfbuf_grow_to(struct bb_perfbuf *pb, int pages)
{
	size_t size = (size_t)pages * pb->page_size;

	pb->grow_size = pages > 0 && !(pages & (pages - 1)) &&
			size > pb->ring_size ? size : 0;
}

/*
 * Replace r by a ring of pb->grow_size. The new ring is stored in the map
 * (an atomic swap: the programs write there from then on); the old one
 * stays mapped, drained at each poll before the new one, until the end (a
 * program on its CPU may have looked it up just before the swap). Where
 * the memory cannot be had (locked memory limits), the ring keeps its
 * size: loss, if it comes, is counted as before.
 */
static void ring_grow(struct bb_perfbuf *pb, int i)
{
	struct perfbuf_ring *r = &pb->rings[i], n = { 0 };
	struct bb_err err;

	if (ring_open(pb, r->cpu, pb->grow_size, &n, &err))
		return;
	n.old_fd = r->fd;
	n.old_base = r->base;
	n.old_size = r->ring_size;
	*r = n;
	pb->pfds[i].fd = r->fd;
}

int perfbuf_poll(struct bb_perfbuf *pb, int timeout_ms)
{
	int i, n, total = 0, bad = 0;

	if (timeout_ms < 0 || timeout_ms > PERFBUF_MAX_DELAY_MS)
		timeout_ms = PERFBUF_MAX_DELAY_MS;
	/* the first polls, after the tool said it is tracing: a ring each
	 * grows to its full size, then every ring is drained at once, so that
	 * no ring waits for more than one ring's pages (2.5-3.2 ms for 16 MiB
	 * here) while the first rings' slack takes the records */
	if (pb->grow_size && pb->grown < pb->nrings) {
		ring_grow(pb, pb->grown++);
		timeout_ms = 0;
	}
	n = poll(pb->pfds, pb->nrings, timeout_ms);
	if (n < 0)
		/* a signal: let the caller look at its stop flag */
		return errno == EINTR ? 0 : -errno;
	/* wake-ups come at a watermark, so drain every ring, not just the
	 * ones poll() reported: a ring may hold records short of a wakeup */
	for (i = 0; i < pb->nrings; i++) {
		struct perfbuf_ring *r = &pb->rings[i];

		if (r->old_base) { /* records written before the swap first */
			n = ring_drain(pb, r->old_base, r->old_size, r->cpu);
			total += n > 0 ? n : 0;
		}
		n = ring_drain(pb, r->base, r->ring_size, r->cpu);
		if (n < 0)
			bad = n;
		else
			total += n;
	}
	return bad ? bad : total;
}

int perfbuf_pages_scaled(int pages, uint64_t mem_bytes, int ncpus,
			 size_t page_size)
{
	uint64_t want = mem_bytes / 512 / (ncpus > 0 ? ncpus : 1);
	uint64_t got = pages;

	if (want > PERFBUF_MAX_RING_BYTES)
		want = PERFBUF_MAX_RING_BYTES;
	if (!page_size)
		return pages;
	while ((got * 2) * page_size <= want)
		got *= 2;
	return (int)got;
}

uint64_t perfbuf_lost(const struct bb_perfbuf *pb)
{
	return pb->lost;
}

void perfbuf_close(struct bb_perfbuf *pb)
{
	int i;

	if (!pb)
		return;
	for (i = 0; i < pb->nrings; i++)
		ring_close(pb, &pb->rings[i]);
	free(pb->scratch);
	free(pb->pfds);
	free(pb->rings);
	free(pb);
}
