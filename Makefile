# barebpf: one static binary with its BPF objects embedded.
#   make            build/barebpf (static, musl)
#   make test       the layout rules (make layout), a build of two tools
#                   (make test-tools), Check unit tests (also under
#                   ASan+UBSan: make test-asan), then integration tests
#                   on this kernel
#   make TOOLS="biolatency biosnoop"   a binary of those tools only
#   make vm-test    whole-system tests in QEMU (x86_64, arm64, armv7 and
#                   riscv64 kernels; builds the other architectures'
#                   binaries in $(O)-<arch> for them)
#   make ARCH=aarch64 O=build-aarch64   the arm64 binary (cross-built;
#                   also ARCH=armv7, 32-bit ARM hard-float, and ARCH=riscv64)
#   make vm-bench   cost per I/O of the tools in QEMU (figures only)
#   make bench      the bytes each tool adds (make bench-size), then
#                   barebpf against bpftrace on this machine (figures only;
#                   BENCH_BASE=main measures main's build beside it)
#   make demo       biolatency on a loop device made for the demo
#   make install    PREFIX=/usr/local
#   make dist       $(O)/dist/barebpf-VERSION-ARCH.tar.gz, reproducible
#                   (tests/dist-repro.sh checks it for every ARCH)
#   V=1             show full commands
O ?= build
PREFIX ?= /usr/local
comma := ,
HOST_ARCH := $(shell uname -m)
ARCH ?= $(HOST_ARCH)

ifeq ($(ARCH),x86_64)
BPF_ARCH := x86
else ifeq ($(ARCH),aarch64)
BPF_ARCH := arm64
else ifeq ($(ARCH),armv7)
BPF_ARCH := arm
else ifeq ($(ARCH),riscv64)
BPF_ARCH := riscv
else
$(error unsupported ARCH $(ARCH): add asm/$(ARCH).h)
endif

# The binary is linked statically against musl; the tests use the host's
# libc because Check and libelf come from Debian packages built on glibc.
# A cross build uses Debian's musl wrapper for the target (musl-dev:ARCH,
# see scripts/deps.sh; riscv64's is made by that script from trixie's).
musl_cc = $(if $(filter armv7,$(1)),arm-linux-musleabihf-gcc,$(1)-linux-musl-gcc)
ifeq ($(ARCH),$(HOST_ARCH))
MUSL_CC ?= musl-gcc
else
MUSL_CC ?= $(call musl_cc,$(ARCH))
endif
HOST_CC ?= cc
CLANG ?= clang

WARN := -Wall -Wextra -Werror -Wno-missing-field-initializers
CFLAGS ?= -Os -g0
# Size: the binary is copied onto small hosts (at most 400 KiB, .ci/run).
# No unwind tables (C without exceptions; nothing walks our own stack: 65 KB
# of the aarch64 binary), and unused sections dropped at the link.
# -fno-pie: the binary is a static executable at a fixed address, so code
# compiled position-independent (Debian's gcc default) only costs: its
# constant tables of pointers went to a writable .data.rel.ro of their own
# (45 KB on aarch64), and the file took 7 KB more there.
SIZE_CFLAGS := -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -fno-unwind-tables -fno-pie
# No RELRO: musl applies it only in its dynamic linker, so in this static
# binary it protects nothing (the data segment stays rw-, see
# /proc/PID/maps), but it aligns the end of its part of the data segment to
# the largest page size in the file: up to 64 KiB of padding on aarch64.
SIZE_LDFLAGS := -Wl,--gc-sections -Wl,-z,norelro
# Link-time optimisation where it pays (issue 28, -Os, bytes of the binary
# without -> with: aarch64 519,928 -> 511,560, armv7 412,556 -> 409,492,
# riscv64 466,648 -> 462,376; x86_64 506,696 -> 506,760, so not there).
# LTO=0 or LTO=1 chooses. One partition: the smallest, and the same code
# whatever the parallelism. The objects of the binary only (not those of
# the tests or the fuzzers).
LTO ?= $(if $(filter x86_64,$(ARCH)),0,1)
ifeq ($(LTO),1)
SIZE_CFLAGS += -flto -flto-partition=one
SIZE_LDFLAGS += -flto -flto-partition=one $(filter -O%,$(CFLAGS))
endif
# Reproducible (make dist): no build folder in the objects (__FILE__ of
# assert, debug info), whatever folder the tree was built in.
REPRO_CFLAGS := -ffile-prefix-map=$(CURDIR)/=
CFLAGS += $(REPRO_CFLAGS)
# The library's folders (docs/ARCHITECTURE.md): primitives at the root,
# user-space binaries, kernel facts, BPF objects, attaching.
LIB_INC := -Iloader -Iloader/user -Iloader/kernel -Iloader/obj -Iloader/probe
CFLAGS += $(WARN) -std=gnu11 -D_GNU_SOURCE $(LIB_INC) -Iasm -Ibpf
# The command line's folders: the frame, the program modules, the tools
# (a tool of several files has a folder of its own: loader/tools/NAME/).
CMD_INC := -Iloader/cli -Iloader/mods -Iloader/tools $(patsubst %/,-I%,$(sort $(wildcard loader/tools/*/))) -I$(O)/gen
CLI_CFLAGS := $(CMD_INC)
TEST_CFLAGS := -O1 -g $(WARN) -std=gnu11 -D_GNU_SOURCE $(LIB_INC) $(CMD_INC) -Iasm -Ibpf \
	-Wno-unused-parameter
# -mcpu=v1: no JLT/JLE/JSLT/JSLE (4.14), which 4.9's verifier refuses
# ("invalid BPF_JMP opcode"); clang swaps the operands of JGT/JGE instead.
BPF_CFLAGS := -target bpf -O2 -mcpu=v1 -g0 $(REPRO_CFLAGS) -D__TARGET_ARCH_$(BPF_ARCH) -Ibpf \
	-Wall -Werror -Wno-unused-function

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-8s %s\n' $(1) $(2)
endif

LIB_SRCS := $(wildcard loader/*.c loader/user/*.c loader/kernel/*.c loader/obj/*.c loader/probe/*.c)
# loader/cli/ (the frame), loader/mods/ (one module per BPF object) and
# loader/tools/ (one file or folder per tool) see those folders and $(O)/gen/; the
# library (LIB_SRCS) is built without them on its include path, so that it
# cannot depend on the command line (docs/ARCHITECTURE.md).
CLI_SRCS := $(wildcard loader/cli/*.c)
MOD_SRCS := $(wildcard loader/mods/*.c)
TOOL_SRCS := $(wildcard loader/tools/*.c loader/tools/*/*.c)
CMD_SRCS := $(CLI_SRCS) $(MOD_SRCS) $(TOOL_SRCS)
BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_NAMES := $(patsubst bpf/%.bpf.c,%,$(BPF_SRCS))
BPF_OBJS := $(patsubst %,$(O)/bpf/%.bpf.o,$(BPF_NAMES))
EMBED_OBJS := $(patsubst %,$(O)/embed/%.o,$(BPF_NAMES))
# One header per object with its constants' and maps' names (bbskel.c)
SKELS := $(patsubst %,$(O)/gen/%.skel.h,$(BPF_NAMES))
HDRS := $(wildcard loader/*.h loader/user/*.h loader/kernel/*.h loader/obj/*.h loader/probe/*.h loader/cli/*.h loader/mods/*.h loader/tools/*.h loader/tools/*/*.h asm/*.h bpf/*.h)
# The tools' names, from their definitions (`const struct tool tool_x = {`
# then `"name", ...`): the links are made without running the binary, which
# a cross build cannot. A native build checks the list against --list-tools.
ALL_TOOLS := $(shell sed -n '/^const struct tool tool_/{n;s/^[[:space:]]*"\([^"]*\)".*/\1/p;}' $(TOOL_SRCS))
# make TOOLS="biolatency biosnoop": a binary of those tools only, for the
# smallest boards (see $(O)/barebpf). The list is kept in $(O)/tools.list, so
# that a change of it links again.
ifeq ($(origin TOOLS),command line)
ifneq ($(filter-out $(ALL_TOOLS),$(TOOLS)),)
$(error TOOLS: no tool $(filter-out $(ALL_TOOLS),$(TOOLS)); the tools are: $(ALL_TOOLS))
endif
ifeq ($(strip $(TOOLS)),)
$(error TOOLS is empty: name at least one of $(ALL_TOOLS))
endif
else
TOOLS := $(ALL_TOOLS)
endif
TOOLS_LIST := $(shell mkdir -p $(O) && { [ "$$(cat $(O)/tools.list 2>/dev/null)" = "$(TOOLS)" ] || echo "$(TOOLS)" >$(O)/tools.list; } && echo $(O)/tools.list)

LIB_OBJS := $(patsubst loader/%.c,$(O)/musl/%.o,$(LIB_SRCS))
CMD_OBJS := $(patsubst loader/%.c,$(O)/musl/%.o,$(CMD_SRCS))
HLIB_OBJS := $(patsubst loader/%.c,$(O)/host/%.o,$(LIB_SRCS))
HCMD_OBJS := $(patsubst loader/%.c,$(O)/host/%.o,$(filter-out loader/cli/main.c,$(CMD_SRCS)))
HEMBED_OBJS := $(patsubst %,$(O)/host/embed/%.o,$(BPF_NAMES)) $(O)/host/embed_list.o $(O)/host/embed/help-text.o

# BPF objects only the tests load (read from disk, never embedded).
TEST_BPF_OBJS := $(patsubst tests/bpf/%.bpf.c,$(O)/tests/bpf/%.bpf.o,$(wildcard tests/bpf/*.bpf.c))

UNIT_SRCS := $(wildcard tests/unit/*.c)
INTEG_SRCS := $(wildcard tests/integration/*.c)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread)

all: $(O)/barebpf

# A table of every embedded object, so that tests cover each one.
$(O)/embed_list.c: $(BPF_SRCS) Makefile
	@mkdir -p $(dir $@)
	$(Q){ echo '#include "tool.h"'; \
	  for n in $(BPF_NAMES); do echo "EMBEDDED_OBJ($$n);"; done; \
	  echo 'const struct embedded_obj embedded_objs[] = {'; \
	  for n in $(BPF_NAMES); do echo "	{ \"$$n\", bpfobj_$$n, bpfobj_$${n}_end },"; done; \
	  echo '	{ 0 } };'; } > $@

$(O)/host/embed_list.o: $(O)/embed_list.c $(HDRS)
	$(Q)$(HOST_CC) $(TEST_CFLAGS) -c -o $@ $<

# Busybox style, the tools of TOOLS only: everything but main.o goes into
# an archive, of which the linker takes an object only for a symbol that
# the objects already taken need. main.c refers to the tools weakly (an
# entry for a tool not linked is NULL) and -u asks for those of TOOLS: a
# tool not named brings neither its files, nor its program module, nor its
# embedded BPF object (nor the library code only it calls).
AR := $(shell $(MUSL_CC) -print-prog-name=ar)
$(O)/musl/barebpf.a: $(filter-out $(O)/musl/cli/main.o,$(CMD_OBJS)) $(LIB_OBJS) $(EMBED_OBJS) $(O)/embed/help-text.o
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcsD $@ $^

$(O)/barebpf: $(O)/musl/cli/main.o $(O)/musl/barebpf.a $(TOOLS_LIST)
	$(call msg,LD,$@)
	$(Q)$(MUSL_CC) -static -s $(SIZE_LDFLAGS) $(patsubst %,-Wl$(comma)-u$(comma)tool_%,$(TOOLS)) -o $@ $(filter %.o %.a,$^)
ifeq ($(ARCH),$(HOST_ARCH))
	$(Q)[ "$$($@ --list-tools | sort | tr '\n' ' ')" = "$$(printf '%s\n' $(TOOLS) | sort | tr '\n' ' ')" ] || \
	  { echo "$@: --list-tools differs from the Makefile's TOOLS ($(TOOLS))" >&2; rm -f $@; exit 1; }
endif
	$(Q)find $(O) -maxdepth 1 -type l -lname barebpf -delete
	$(Q)for t in $(TOOLS); do ln -sf barebpf $(O)/$$t; done

# The compiler and its flags (LTO=, CFLAGS=): the objects are built again
# when they change.
MUSL_FLAGS := $(shell mkdir -p $(O)/musl && f='$(MUSL_CC) $(CFLAGS) $(SIZE_CFLAGS)' && \
	{ [ "$$(cat $(O)/musl/flags 2>/dev/null)" = "$$f" ] || echo "$$f" >$(O)/musl/flags; } && echo $(O)/musl/flags)

$(O)/musl/%.o: loader/%.c $(HDRS) $(MUSL_FLAGS)
	$(call msg,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(MUSL_CC) $(CFLAGS) $(if $(filter loader/cli/% loader/mods/% loader/tools/%,$<),$(CLI_CFLAGS)) $(SIZE_CFLAGS) -c -o $@ $<

$(O)/host/%.o: loader/%.c $(HDRS)
	$(call msg,HOSTCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(TEST_CFLAGS) -c -o $@ $<

# (Makefile: BPF_CFLAGS, -mcpu, live here)
$(O)/bpf/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) Makefile
	$(call msg,BPF,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c -o $@ $<

# Embedded objects are stored compressed (loader/obj/lz.c; about a third of
# their size), decoded by tool_open: lzpack is a build tool, for this host.
$(O)/lzpack: scripts/lzpack.c loader/obj/lz.c loader/barebpf.h
	$(call msg,HOSTCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -O2 $(WARN) -std=gnu11 $(LIB_INC) -Iasm -Ibpf -o $@ scripts/lzpack.c loader/obj/lz.c

# The names of each object for the tools (scripts/bbskel.c): a build
# tool like lzpack, linked with the library built for this host (the host
# objects of the unit tests), which reads an object of any architecture.
$(O)/bbskel: scripts/bbskel.c $(HLIB_OBJS)
	$(call msg,HOSTCC,$@)
	$(Q)$(HOST_CC) $(TEST_CFLAGS) -o $@ $^

$(O)/gen/%.skel.h: $(O)/bpf/%.bpf.o $(O)/bbskel
	$(call msg,GEN,$@)
	@mkdir -p $(dir $@)
	$(Q)$(O)/bbskel $< $* $@

# The target's system call names, from its musl (scripts/sysnr.sh): the
# host objects of the tests are built for this same architecture.
$(O)/gen/sysnr.h: scripts/sysnr.sh
	$(call msg,GEN,$@)
	@mkdir -p $(dir $@)
	$(Q)scripts/sysnr.sh "$(MUSL_CC)" $@

# Everything of the command line may include a generated header.
$(CMD_OBJS) $(HCMD_OBJS) $(O)/host/embed_list.o: $(SKELS) $(O)/gen/sysnr.h

$(O)/bpf/%.bpf.lz: $(O)/bpf/%.bpf.o $(O)/lzpack
	$(Q)$(O)/lzpack $< $@

# The tools' --help texts (loader/tools/.../NAME.help), one blob of them,
# each after a line "\001NAME", compressed as the objects are (about 104
# KB to 27: they repeat each other) and decoded by loader/cli/help.c. Every
# tool's text is in it, also in a build of some TOOLS only. @BB_FLOOR@ and
# @BB_FIELDOFF_CACHE@ in a text are the values of those macros.
HELP_SRCS := $(sort $(wildcard loader/tools/*.help loader/tools/*/*.help))
help_macro = $(shell sed -n 's/^\#define $(1) "\(.*\)"$$/\1/p' $(2))
$(O)/gen/help.txt: $(HELP_SRCS) loader/cli/facts.h loader/kernel/fieldoff.h
	$(call msg,GEN,$@)
	@mkdir -p $(dir $@)
	$(Q)for f in $(HELP_SRCS); do printf '\001%s\n' "$$(basename $$f .help)"; cat $$f; done | \
	  sed -e 's|@BB_FLOOR@|$(call help_macro,BB_FLOOR,loader/cli/facts.h)|g' \
	      -e 's|@BB_FIELDOFF_CACHE@|$(call help_macro,BB_FIELDOFF_CACHE,loader/kernel/fieldoff.h)|g' >$@.tmp
	$(Q)! grep -n '@[A-Z_]*@' $@.tmp || { echo "$@: a macro of a help text is not known (Makefile)" >&2; exit 1; }
	$(Q)mv $@.tmp $@

$(O)/gen/help.lz: $(O)/gen/help.txt $(O)/lzpack
	$(Q)$(O)/lzpack $< $@

$(O)/embed/help-text.o: $(O)/gen/help.lz asm/embed.S
	@mkdir -p $(dir $@)
	$(Q)$(MUSL_CC) -c -DSYM=bb_help_lz -DOBJ_PATH='"$<"' -o $@ asm/embed.S

$(O)/host/embed/help-text.o: $(O)/gen/help.lz asm/embed.S
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -c -DSYM=bb_help_lz -DOBJ_PATH='"$<"' -o $@ asm/embed.S

$(O)/embed/%.o: $(O)/bpf/%.bpf.lz asm/embed.S
	$(call msg,EMBED,$@)
	@mkdir -p $(dir $@)
	$(Q)$(MUSL_CC) -c -DOBJ_NAME=$* -DOBJ_PATH='"$<"' -o $@ asm/embed.S

$(O)/host/embed/%.o: $(O)/bpf/%.bpf.lz asm/embed.S
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -c -DOBJ_NAME=$* -DOBJ_PATH='"$<"' -o $@ asm/embed.S

$(O)/tests/unit: $(SKELS) $(UNIT_SRCS) tests/bbtest.h tests/jsoncheck.h tests/bbtest_main.h $(HLIB_OBJS) $(HCMD_OBJS) $(HEMBED_OBJS) $(BPF_OBJS) $(TEST_BPF_OBJS) $(O)/lzpack
	$(call msg,TEST,$@)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(TEST_CFLAGS) -Itests -DBB_BUILD_DIR='"$(O)"' -o $@ $(UNIT_SRCS) $(HLIB_OBJS) $(HCMD_OBJS) $(HEMBED_OBJS) $(CHECK_LIBS) -lelf

# The unit suites again under AddressSanitizer and UBSan (make test runs
# them): tests like test_flipped and test_truncated only show that nothing
# crashes, and without a sanitizer an out-of-bounds read passes. Any report
# fails the test that made it (-fno-sanitize-recover).
# GCC's value-range warnings misfire on instrumented code (a loop index
# seen as any int in snprintf): those are left to the normal build.
ASAN_CFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -Wno-format-truncation -Wno-stringop-overflow \
	-Wno-stringop-truncation -Wno-array-bounds -Wno-maybe-uninitialized
ASAN_LIB_OBJS := $(patsubst loader/%.c,$(O)/asan/%.o,$(LIB_SRCS))
ASAN_CMD_OBJS := $(patsubst loader/%.c,$(O)/asan/%.o,$(filter-out loader/cli/main.c,$(CMD_SRCS)))

$(ASAN_CMD_OBJS): $(SKELS) $(O)/gen/sysnr.h

$(O)/asan/%.o: loader/%.c $(HDRS)
	$(call msg,ASANCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(TEST_CFLAGS) $(ASAN_CFLAGS) -c -o $@ $<

$(O)/asan/tests/unit: $(UNIT_SRCS) tests/bbtest.h tests/bbtest_main.h $(ASAN_LIB_OBJS) $(ASAN_CMD_OBJS) $(HEMBED_OBJS) $(BPF_OBJS) $(TEST_BPF_OBJS) $(O)/lzpack
	$(call msg,TEST,$@)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(TEST_CFLAGS) $(ASAN_CFLAGS) -Itests -DBB_BUILD_DIR='"$(O)"' -o $@ $(UNIT_SRCS) $(ASAN_LIB_OBJS) $(ASAN_CMD_OBJS) $(HEMBED_OBJS) $(CHECK_LIBS) -lelf

test-asan: $(O)/asan/tests/unit
	ASAN_OPTIONS=abort_on_error=0:halt_on_error=1$(ASAN_EXTRA) \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $(O)/asan/tests/unit

# btf_*: libbpf-style objects, whose maps are described in BTF (-g)
$(O)/tests/bpf/btf_%.bpf.o: BPF_TEST_FLAGS := -g
$(O)/tests/bpf/%.bpf.o: tests/bpf/%.bpf.c $(wildcard bpf/*.h tests/bpf/*.h)
	$(call msg,BPF,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(BPF_TEST_FLAGS) -c -o $@ $<

# Load with known stacks for the profile tests: frame pointers (user
# stacks are walked by them), nothing inlined, so each function is a frame.
$(O)/tests/stackload: tests/tools/stackload.c
	$(call msg,HOSTCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -O0 -g -fno-omit-frame-pointer -fno-inline $(WARN) -o $@ $<

# Functions for the uprobe tests to probe: not inlined, frame pointers.
$(O)/tests/ucalls: tests/tools/ucalls.c tests/tools/sdt.h
	$(call msg,HOSTCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -O1 -g -fno-omit-frame-pointer -fno-inline $(WARN) -o $@ $<

# A 32-bit x86 task without a C library (funccount's syscalls/ test); its
# test skips where the compiler cannot build it (-m32), hence the "-".
$(O)/tests/compat32: tests/tools/compat32.c
	$(call msg,HOSTCC,$@)
	@mkdir -p $(dir $@)
	-$(Q)$(HOST_CC) -m32 -O1 -static -nostdlib -ffreestanding -fno-pie -no-pie \
	  -fno-stack-protector $(WARN) -o $@ $< 2>/dev/null || rm -f $@

$(O)/tests/integration: $(O)/tests/stackload $(O)/tests/ucalls $(O)/tests/compat32 $(SKELS) $(INTEG_SRCS) tests/bbtest.h tests/jsoncheck.h tests/bbtest_main.h $(HLIB_OBJS) $(HCMD_OBJS) $(HEMBED_OBJS) $(TEST_BPF_OBJS)
	$(call msg,TEST,$@)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(TEST_CFLAGS) -Itests -DBB_BUILD_DIR='"$(O)"' -o $@ $(INTEG_SRCS) $(HLIB_OBJS) $(HCMD_OBJS) $(HEMBED_OBJS) $(CHECK_LIBS)

# The layout rules (scripts/layout.sh, its include table scripts/layers.txt):
# file and function lengths, includes, call cycles between files (from the
# host objects) and the binary's size; tests/layout.sh shows each failing.
layout: $(HLIB_OBJS) $(HCMD_OBJS) $(O)/host/cli/main.o $(O)/barebpf
	$(Q)tests/layout.sh
	$(Q)scripts/layout.sh --objs $(O)/host $(O)/barebpf

# make TOOLS="...": a binary of two tools, linked in $(O)/tools-subset
test-tools: $(O)/barebpf
	$(Q)tests/tools-subset.sh $(O)

test: $(O)/barebpf $(O)/tests/unit $(O)/asan/tests/unit $(O)/tests/integration
ifneq ($(ARCH),$(HOST_ARCH))
	@echo "make test: the tests run on this $(HOST_ARCH) kernel; $(ARCH) is tested by make vm-test" >&2; exit 1
endif
	$(MAKE) --no-print-directory layout
	$(MAKE) --no-print-directory test-tools
	$(O)/tests/unit
	$(MAKE) --no-print-directory test-asan
	BAREBPF=$(abspath $(O)/barebpf) $(O)/tests/integration

# Every kernel of every architecture: each with the binary of its own.
ALL_ARCHS := x86_64 aarch64 armv7 riscv64
OTHER_ARCHS := $(filter-out $(ARCH),$(ALL_ARCHS))
vm-test: $(O)/barebpf $(patsubst %,$(O)-%/barebpf,$(OTHER_ARCHS))
	vm-tests/run.sh $^

$(patsubst %,$(O)-%/barebpf,$(OTHER_ARCHS)): $(O)-%/barebpf: FORCE
	$(Q)$(MAKE) --no-print-directory ARCH=$* O=$(O)-$* MUSL_CC=$(if $(filter $*,$(HOST_ARCH)),musl-gcc,$(call musl_cc,$*)) $@

# Cost per I/O of the tools, in QEMU: prints figures, asserts none.
vm-bench: $(O)/barebpf
	VMTEST_SUITE=bench VMTEST_VERBOSE=1 vm-tests/run.sh $(O)/barebpf

# barebpf against bpftrace on this kernel (root): start, exit, RSS, size,
# per-I/O cost, event streaming. Prints figures, asserts none. First the
# bytes each tool adds to the binary (bench-size: any ARCH, no root).
bench: bench-size
	bench/bench.sh $(O)/barebpf

bench-size: $(O)/barebpf
	bench/toolsize.sh $(O)

# ---- fuzzing: libFuzzer harnesses of tests/fuzz, with ASan and UBSan ----
#   make fuzz                   each harness for FUZZ_SECONDS (10; CI: 60)
#   make fuzz FUZZ=obj          only tests/fuzz/fuzz_obj.c
# A crash, leak, timeout (FUZZ_TIMEOUT s for one input), more than
# FUZZ_RSS_MB of memory in all or one allocation of more than FUZZ_MALLOC_MB
# (inputs are a few KiB: a bigger allocation trusted a claimed size) fails;
# the input lands in $(O)/fuzz/artifacts/.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 10
FUZZ_RSS_MB ?= 2048
FUZZ_MALLOC_MB ?= 64
FUZZ_TIMEOUT ?= 10
FUZZ ?= $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_CFLAGS := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all $(WARN) -Wno-unused-parameter -std=gnu11 \
	-D_GNU_SOURCE $(LIB_INC) $(CMD_INC) -Iasm -Ibpf
FUZZ_LIB_OBJS := $(patsubst loader/%.c,$(O)/fuzz/lib/%.o,$(LIB_SRCS))
# parsers of outside input on the command-line side (the HTTP server), and
# the output layer that trace's record printer (fuzz_tracespec) writes with
FUZZ_CMD_SRCS := loader/tools/exporter/httpd.c loader/tools/exporter/httpd_parse.c loader/cli/output.c
FUZZ_CMD_OBJS := $(patsubst loader/%.c,$(O)/fuzz/cmd/%.o,$(FUZZ_CMD_SRCS))

$(O)/fuzz/lib/%.o: loader/%.c $(HDRS)
	$(call msg,FUZZCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(O)/fuzz/cmd/%.o: loader/%.c $(HDRS)
	$(call msg,FUZZCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(O)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_LIB_OBJS) $(FUZZ_CMD_OBJS)
	$(call msg,FUZZLD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJS) $(FUZZ_CMD_OBJS)

# A generator of large objects (tests/unit/bigobj.h), for measuring.
$(O)/fuzz/mkbigobj: tests/fuzz/mkbigobj.c tests/unit/bigobj.h
	$(call msg,HOSTCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -O2 $(WARN) -o $@ $<

fuzz: $(patsubst %,$(O)/fuzz/fuzz_%,$(FUZZ)) $(O)/fuzz/mkbigobj
	tests/fuzz/run.sh $(O) $(FUZZ_SECONDS) $(FUZZ_RSS_MB) $(FUZZ_MALLOC_MB) \
		$(FUZZ_TIMEOUT) $(FUZZ)

.PHONY: fuzz
.SECONDARY: $(FUZZ_LIB_OBJS) $(FUZZ_CMD_OBJS) $(patsubst %,$(O)/bpf/%.bpf.lz,$(BPF_NAMES)) $(SKELS)

demo: $(O)/barebpf
	scripts/demo.sh $(O)/barebpf

install: $(O)/barebpf
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(O)/barebpf $(DESTDIR)$(PREFIX)/bin/barebpf
	for t in $(TOOLS); do ln -sf barebpf $(DESTDIR)$(PREFIX)/bin/$$t; done

# Release tarball (scripts/dist.sh). The man pages come from --help, run
# here: a cross build links a binary for this host from the unit tests'
# objects (the help text is the same on every architecture).
VERSION := $(shell sed -n 's/^\#define BB_VERSION "\(.*\)"/\1/p' loader/cli/tool.h)
ifeq ($(ARCH),$(HOST_ARCH))
HELP_BIN := $(O)/barebpf
else
HELP_BIN := $(O)/host/barebpf
endif
DIST := $(O)/dist/barebpf-$(VERSION)-$(ARCH).tar.gz

$(O)/host/barebpf: $(O)/host/cli/main.o $(HLIB_OBJS) $(HCMD_OBJS) $(HEMBED_OBJS)
	$(call msg,HOSTLD,$@)
	$(Q)$(HOST_CC) -o $@ $^ -lm

$(O)/host/cli/main.o: $(SKELS)

dist: $(DIST)

$(DIST): $(O)/barebpf $(HELP_BIN) scripts/dist.sh scripts/mkman.sh README.md LICENSE FORCE
	$(call msg,DIST,$@)
	$(Q)[ "$$($(HELP_BIN) --version)" = "barebpf $(VERSION)" ] || \
	  { echo "$(HELP_BIN) --version is not barebpf $(VERSION)" >&2; exit 1; }
	@mkdir -p $(dir $@)
	$(Q)scripts/dist.sh $(O)/dist $(VERSION) $(ARCH) $(O)/barebpf $(HELP_BIN) $(TOOLS) >/dev/null

clean:
	rm -rf $(O) $(patsubst %,$(O)-%,$(OTHER_ARCHS))

.PHONY: all layout test-tools test test-asan vm-test vm-bench bench bench-size demo install dist clean FORCE
.DELETE_ON_ERROR:
