#!/bin/sh
# usage: scripts/dist.sh OUTDIR VERSION ARCH BAREBPF HELP_BAREBPF TOOL...
# Writes OUTDIR/barebpf-VERSION-ARCH.tar.gz (make dist): the binary
# BAREBPF, a link per tool, man pages made from the --help of HELP_BAREBPF
# (a binary this host runs: the same text as BAREBPF's), README.md,
# LICENSE and SHA256SUMS of the files.
#
# Reproducible: two builds of one commit, in any folder, by any user with
# any umask, give the same bytes. Every timestamp is the commit's date
# (SOURCE_DATE_EPOCH if set), owners are 0, entries sorted by name, modes
# set here, gzip stores no name or time.
set -eu
out=$1 version=$2 arch=$3 bin=$4 helpbin=$5
shift 5
name=barebpf-$version-$arch
stage=$out/$name
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || true)}
epoch=${epoch:-0}

rm -rf "$stage" "$stage.tar.gz"
mkdir -p "$stage/man/man8"
cp "$bin" "$stage/barebpf"
for t; do
	ln -s barebpf "$stage/$t"
done
scripts/mkman.sh "$helpbin" "$version" >"$stage/man/man8/barebpf.8"
for t; do
	scripts/mkman.sh "$helpbin" "$version" "$t" >"$stage/man/man8/$t.8"
done
cp README.md LICENSE "$stage/"
find "$stage" -type d -exec chmod 755 {} +
find "$stage" -type f -exec chmod 644 {} +
chmod 755 "$stage/barebpf"
# Every file but the links (which sha256sum would follow to the binary).
(cd "$stage" && find . -type f | sed 's|^\./||' | LC_ALL=C sort |
	xargs sha256sum >../SHA256SUMS.$$)
mv "$out/SHA256SUMS.$$" "$stage/SHA256SUMS"
chmod 644 "$stage/SHA256SUMS"
LC_ALL=C tar --sort=name --format=gnu --owner=0 --group=0 --numeric-owner \
	--mtime="@$epoch" -C "$out" -cf - "$name" | gzip -9 -n >"$stage.tar.gz"
rm -rf "$stage"
echo "$stage.tar.gz"
