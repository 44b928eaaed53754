#!/bin/sh
# Install what building and testing barebpf needs, from Debian's packages.
# The binary it builds needs none of this on the target.
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	make gcc libc6-dev clang llvm musl-tools pkg-config \
	libclang-rt-14-dev \
	check libsubunit-dev libelf-dev \
	util-linux coreutils \
	qemu-system-x86 busybox-static cpio xz-utils \
	>/dev/null
echo "deps: build and test dependencies installed"
