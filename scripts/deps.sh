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
# groff-base and man-db: tests/dist-repro.sh renders the man pages of make
# dist and fails on any warning.
# python3 and chromium: the flame graph tests parse the SVG (xml.etree) and
# load it in headless chromium (tests/tools/fgbrowser.py).
# Cross builds: musl for aarch64 and armv7 comes as the packages
# musl-dev:arm64 and musl-dev:armhf, beside the host's own (each brings its
# wrapper, aarch64-linux-musl-gcc and arm-linux-musleabihf-gcc).
# qemu-system-misc and opensbi: the riscv64 guests of make vm-test.
dpkg --add-architecture arm64
dpkg --add-architecture armhf
# apt-get update fails when any one index cannot be had (seen: bookworm-
# security's armhf Packages, "Mirror sync in progress?", for days): go on
# with what was fetched; the install below fails by itself, naming the
# package, if something it needs is missing.
apt-get update -qq || echo "deps: warning: apt-get update could not fetch every index (above); going on with the others" >&2
apt-get install -y -qq --no-install-recommends \
	make gcc libc6-dev clang llvm musl-tools pkg-config \
	libclang-rt-14-dev \
	check libsubunit-dev libelf-dev \
	util-linux coreutils \
	gcc-aarch64-linux-gnu musl-dev:arm64 \
	gcc-arm-linux-gnueabihf musl-dev:armhf \
	gcc-riscv64-linux-gnu \
	qemu-system-x86 qemu-system-arm qemu-system-misc opensbi \
	busybox-static cpio xz-utils zstd file \
	debian-archive-keyring \
	prometheus prometheus-node-exporter \
	bpftrace fio dwarves \
	python3 chromium \
	groff-base man-db \
	>/dev/null

# riscv64: bookworm has no musl for it (trixie's 1.2.5 is the first), and
# musl-dev:riscv64 cannot sit beside the host's musl-dev 1.2.3 (a Multi-Arch:
# same package has one version on every architecture). So trixie's
# packages are fetched through a private apt configuration (as
# vm-tests/run.sh fetches kernels), unpacked into $MUSL_RV, and a wrapper
# riscv64-linux-musl-gcc made like Debian's own: the cross gcc with musl's
# specs, their paths pointed into $MUSL_RV.
MUSL_RV=/opt/barebpf/musl-riscv64
if [ ! -x /usr/local/bin/riscv64-linux-musl-gcc ] || [ ! -f "$MUSL_RV/lib/libc.a" ]; then
	a=$(mktemp -d)
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/deb"
	mirror=$(sed -n 's/^URIs:[[:space:]]*\(.*debian\/\{0,1\}\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$mirror" ] || mirror=$(sed -n 's/^deb[[:space:]]\+\([^[:space:]]*debian\/\{0,1\}\)[[:space:]].*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n 1)
	echo "deb [arch=riscv64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror:-http://deb.debian.org/debian} trixie main" >"$a/sources.list"
	set -- -o "Dir::Etc::SourceList=$a/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::PreferencesParts=/dev/null -o Dir::Etc::Preferences=/dev/null \
		-o "Dir::State=$a" -o "Dir::State::Lists=$a/lists" -o Dir::State::status=/dev/null \
		-o "Dir::Cache=$a/cache" -o APT::Architecture=riscv64 -o APT::Architectures=riscv64 \
		-o Acquire::Languages=none -o Debug::NoLocking=1 -o APT::Sandbox::User=root
	apt-get "$@" -qq update
	(cd "$a/deb" && apt-get "$@" -qq download musl-dev musl)
	for f in "$a"/deb/*.deb; do dpkg-deb -x "$f" "$a/x"; done
	rm -rf "$MUSL_RV"; mkdir -p "$MUSL_RV"
	cp -a "$a/x/usr/lib/riscv64-linux-musl" "$MUSL_RV/lib"
	cp -a "$a/x/usr/include/riscv64-linux-musl" "$MUSL_RV/include"
	sed -i "s|/usr/lib/riscv64-linux-musl|$MUSL_RV/lib|g; s|/usr/include/riscv64-linux-musl|$MUSL_RV/include|g" \
		"$MUSL_RV/lib/musl-gcc.specs"
	printf '#!/bin/sh\nexec "${REALGCC:-riscv64-linux-gnu-gcc}" "$@" -specs "%s/lib/musl-gcc.specs"\n' "$MUSL_RV" \
		>/usr/local/bin/riscv64-linux-musl-gcc
	chmod 755 /usr/local/bin/riscv64-linux-musl-gcc
	rm -rf "$a"
fi
echo "deps: build and test dependencies installed"
