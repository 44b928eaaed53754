#!/bin/sh
# Install what building and testing barebpf needs, from Debian's packages.
# The binary it builds needs none of this on the target.
set -e
export DEBIAN_FRONTEND=noninteractive
# prometheus (and its promtool) and prometheus-node-exporter: the exporter's
# integration tests run them on loopback, on ports of their own; their
# packages' services are not needed (a container without systemd does not
# start them).
# bpftrace and fio: make bench measures barebpf against bpftrace under fio.
# arm64: musl for the cross-built binary (make ARCH=aarch64) comes as the
# arm64 package musl-dev:arm64, beside the host's own.
dpkg --add-architecture arm64
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	make gcc libc6-dev clang llvm musl-tools pkg-config \
	libclang-rt-14-dev \
	check libsubunit-dev libelf-dev \
	util-linux coreutils \
	gcc-aarch64-linux-gnu musl-dev:arm64 \
	qemu-system-x86 qemu-system-arm busybox-static cpio xz-utils \
	debian-archive-keyring \
	prometheus prometheus-node-exporter \
	bpftrace fio \
	>/dev/null
echo "deps: build and test dependencies installed"
