#!/bin/bash
# usage: scripts/link-tools.sh O DIR TOOL...
# Links DIR/barebpf with only the tools named (make TOOLS="..."), in a build
# folder of its own seeded with the objects of the build folder O, so that
# only the link is done again (tests/tools-subset.sh, bench/toolsize.sh).
# The make output goes to DIR/make.log.
set -u
[ $# -ge 3 ] || { echo "usage: $0 O DIR TOOL..." >&2; exit 2; }
O=$1 D=$2
shift 2
cd "$(dirname "$0")/.."
if [ ! -d "$D/musl" ]; then
	mkdir -p "$D"
	cp -a "$O/musl" "$O/bpf" "$O/gen" "$O/embed" "$O/host" "$O/lzpack" "$O/bbskel" "$D/" ||
		{ echo "link-tools: cannot seed $D from $O (make first)" >&2; exit 1; }
fi
make --no-print-directory -j2 O="$D" TOOLS="$*" "$D/barebpf" >"$D/make.log" 2>&1 ||
	{ cat "$D/make.log" >&2; echo "link-tools: make TOOLS=\"$*\" failed" >&2; exit 1; }
