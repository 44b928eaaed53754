#!/bin/bash
# make bench (first table; also make bench-size): the bytes each tool adds
# to the binary, the size of the whole binary minus its size without that
# tool (make TOOLS="all the others", linked from the objects of O in
# O/tools-size). A tool's own files, program module and BPF object count;
# what it shares with a tool still in does not.
#
#   bench/toolsize.sh [O]      (O: the build folder, default build)
set -u
export LC_ALL=C
cd "$(dirname "$0")/.."
O=${1:-build}
D=$O/tools-size
[ -x "$O/barebpf" ] || { echo "toolsize: no $O/barebpf (make first)" >&2; exit 1; }
# the tools of the whole binary: its links (a cross build cannot run it)
mapfile -t all < <(find "$O" -maxdepth 1 -type l -lname barebpf -printf '%f\n' | sort)
[ ${#all[@]} -gt 1 ] || { echo "toolsize: no tool links in $O" >&2; exit 1; }
full=$(stat -c %s "$O/barebpf")
rm -rf "$D"
sum=0
rows=()
for t in "${all[@]}"; do
	others=()
	for u in "${all[@]}"; do [ "$u" = "$t" ] || others+=("$u"); done
	scripts/link-tools.sh "$O" "$D" "${others[@]}" || exit 1
	add=$((full - $(stat -c %s "$D/barebpf")))
	sum=$((sum + add))
	rows+=("$(printf '%-12s %9d %6.1f%%' "$t" "$add" "$(awk -v a=$add -v f=$full 'BEGIN {print 100 * a / f}')")")
done
rm -rf "$D"
echo "bytes each tool adds to $O/barebpf ($full bytes, ${#all[@]} tools)"
printf '%-12s %9s %7s\n' tool bytes share
printf '%s\n' "${rows[@]}" | sort -k2,2nr
printf '%-12s %9d %6.1f%%\n' "(sum)" "$sum" "$(awk -v a=$sum -v f=$full 'BEGIN {print 100 * a / f}')"
printf '%-12s %9d %6.1f%%  (the frame, the library, what tools share)\n' "(the rest)" $((full - sum)) \
	"$(awk -v a=$((full - sum)) -v f=$full 'BEGIN {print 100 * a / f}')"
