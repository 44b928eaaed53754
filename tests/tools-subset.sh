#!/bin/bash
# make TOOLS="..." (make test-tools, run by make test): a binary of two
# tools lists exactly those two, has their links only, runs them, refuses
# the others, is smaller than the whole binary and does not embed the BPF
# object of a tool left out. Built in its own folder, $O/tools-subset,
# seeded with the objects of $O so that only the link is done again.
#
#   tests/tools-subset.sh [O]      (O: the build folder, default build)
set -u
cd "$(dirname "$0")/.."
O=${1:-build}
S=$O/tools-subset
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

[ -x "$O/barebpf" ] || { echo "tools-subset: no $O/barebpf (make first)" >&2; exit 1; }
rm -rf "$S"
# named in the other order than --help's: the table decides the order
scripts/link-tools.sh "$O" "$S" biosnoop biolatency || exit 1
grep -q '  CC ' "$S/make.log" && echo "tools-subset: (note: $S compiled objects again, not only linked)"

B=$S/barebpf
got=$("$B" --list-tools | tr '\n' ' ')
[ "$got" = "biolatency biosnoop " ] && ok "--list-tools: $got" || ko "--list-tools says '$got', not 'biolatency biosnoop '"

links=$(find "$S" -maxdepth 1 -type l -lname barebpf -printf '%f\n' | sort | tr '\n' ' ')
[ "$links" = "biolatency biosnoop " ] && ok "links: $links" || ko "links are '$links'"

"$S/biolatency" --help >"$S/help.out" 2>&1 && grep -q -i 'usage' "$S/help.out" &&
	ok "biolatency --help through its link" || ko "biolatency --help: $(head -3 "$S/help.out")"
out=$("$B" trace -h 2>&1); rc=$?
[ "$rc" = 1 ] && printf '%s\n' "$out" | grep -q "unknown tool 'trace'" &&
	ok "trace is refused: $(printf '%s\n' "$out" | head -1)" || ko "trace: exit $rc: $out"
"$B" --help | grep -q '^  execsnoop ' && ko "--help lists execsnoop" || ok "--help lists only the tools in"

full=$(stat -c %s "$O/barebpf")
sub=$(stat -c %s "$B")
[ "$sub" -lt "$full" ] && ok "$sub bytes against $full for all tools ($((full - sub)) fewer)" ||
	ko "$sub bytes, not fewer than the whole binary's $full"

# the compressed trace object: 48 bytes from its middle, in hex, in the
# binary's hex (an odd offset could only add a false match)
hexof() { od -An -v -tx1 "$@" | tr -d ' \n'; }
lz=$O/bpf/trace.bpf.lz
n=$(stat -c %s "$lz")
chunk=$(hexof -j $((n / 2)) -N 48 "$lz")
if ! hexof "$O/barebpf" | grep -q "$chunk"; then
	ko "the whole binary does not embed $lz: the test cannot tell"
elif hexof "$B" | grep -q "$chunk"; then
	ko "$B embeds trace's BPF object"
else
	ok "trace's BPF object is not embedded"
fi

out=$(make --no-print-directory -n O="$S" TOOLS="biolatency nosuch" "$S/barebpf" 2>&1)
printf '%s\n' "$out" | grep -q "TOOLS: no tool nosuch" && ok "an unknown tool: $(printf '%s\n' "$out" | head -1)" ||
	ko "TOOLS=nosuch: $out"

echo "tools-subset: $pass passed, $fail failed"
[ "$fail" = 0 ] && rm -rf "$S"
[ "$fail" = 0 ]
