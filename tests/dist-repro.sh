#!/bin/bash
# usage: tests/dist-repro.sh [ARCH...]   (default: x86_64 aarch64 armv7 riscv64)
# make dist is reproducible: the tree (HEAD with the working tree's changes
# to tracked files) is checked out twice, into two folders of different
# names and lengths, and built under different umasks; each architecture's
# tarball must be the same bytes from both. Not part of make test or CI
# (eight full builds: about 15 minutes on 2 cores); JOBS=N for make -jN.
# Each tarball's man pages must also render without a warning (groff -ww,
# man --warnings), one for barebpf and one per tool link, and, on this
# machine's architecture, say what the binary's --help says.
set -eu
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- x86_64 aarch64 armv7 riscv64
jobs=${JOBS:-2}

# The working tree's tracked changes as a commit (none: HEAD), so that a
# change can be checked before it is committed.
rev=$(git stash create)
rev=${rev:-HEAD}
a=$(mktemp -d /tmp/bb-dist-a.XXXXXX)
b=$(mktemp -d /tmp/bb-dist-repro-second-tree.XXXXXX)
cleanup() {
	git worktree remove --force "$a/src" 2>/dev/null || true
	git worktree remove --force "$b/src" 2>/dev/null || true
	rm -rf "$a" "$b"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
git worktree add -q --detach "$a/src" "$rev"
git worktree add -q --detach "$b/src" "$rev"

# The man pages of an unpacked tarball in $1: each renders without a
# warning; barebpf.8 and one per link. $2: the tarball's architecture.
man_check() {
	local d=$1 f w n=0 links
	for f in "$d"/man/man8/*.8; do
		w=$(groff -man -Tutf8 -ww -z "$f" 2>&1; MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null)
		[ -z "$w" ] || { echo "FAIL $f: $w" >&2; return 1; }
		n=$((n + 1))
	done
	# Rendered, a page says what --help says (blank lines and indentation
	# aside): checked where the tarball's binary runs.
	if [ "$2" = "$(uname -m)" ]; then
		for f in "$d"/man/man8/*.8; do
			n=$(basename "$f" .8)
			[ "$n" = barebpf ] && set -- --help || set -- "$n" --help
			if [ "$("$d/barebpf" "$@" | grep -v '^$')" != "$(MANWIDTH=200 man -l "$f" 2>/dev/null |
			    sed -n '/^SYNOPSIS$/,/^SEE ALSO$/p' | sed -e '1d;$d' -e '/^DESCRIPTION$/d' \
				-e 's/^       //' | grep -v '^$')" ]; then
				echo "FAIL $f: rendered, it is not the text of barebpf $*" >&2
				return 1
			fi
		done
		n=0
		for f in "$d"/man/man8/*.8; do n=$((n + 1)); done
	fi
	links=$(find "$d" -maxdepth 1 -type l | wc -l)
	[ "$n" -eq $((links + 1)) ] && [ -f "$d/man/man8/barebpf.8" ] ||
		{ echo "FAIL $d: $n man pages for $links tool links" >&2; return 1; }
}

fail=0
for arch in "$@"; do
	(cd "$a/src" && umask 022 && make -s -j"$jobs" ARCH="$arch" O="build-$arch" dist)
	(cd "$b/src" && umask 077 && make -s -j"$jobs" ARCH="$arch" O="build-$arch" dist)
	ta=$(ls "$a/src/build-$arch"/dist/barebpf-*-"$arch".tar.gz)
	tb=$(ls "$b/src/build-$arch"/dist/barebpf-*-"$arch".tar.gz)
	if cmp "$ta" "$tb"; then
		mkdir "$a/x"
		tar -xzf "$ta" -C "$a/x"
		man_check "$a/x"/barebpf-* "$arch" || fail=1
		rm -rf "$a/x"
		echo "ok   $arch: $(basename "$ta") $(stat -c %s "$ta") bytes, sha256 $(sha256sum <"$ta" | cut -d' ' -f1)"
	else
		echo "FAIL $arch: $(basename "$ta") differs between $a/src and $b/src" >&2
		mkdir "$a/x" "$b/x"
		tar -xzf "$ta" -C "$a/x" && tar -xzf "$tb" -C "$b/x"
		diff <(tar -tvzf "$ta") <(tar -tvzf "$tb") >&2 || true
		diff -r "$a/x" "$b/x" >&2 || true
		rm -rf "$a/x" "$b/x"
		fail=1
	fi
done
exit $fail
