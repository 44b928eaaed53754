#!/bin/bash
# The layout checker's own tests (make layout, so make test): a small
# clean tree passes, and each rule, broken once in a copy of it, fails with
# its message naming the file and line; one past each limit fails, the
# limit itself passes. The trees are made here, in a temporary folder, and
# their objects built with this host's cc (the call graph is read by nm).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
check=$here/scripts/layout.sh
W=$(mktemp -d /tmp/bblayout.XXXXXX)
trap 'rm -rf "$W"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# lines N: N lines of C that declare nothing
lines() { local i; for ((i = 0; i < $1; i++)); do echo "/* $i */"; done; }

# the clean tree: a library file, the frame, a tool of two files and a
# tool in a folder, a BPF header; table: the project's own
clean() {
	rm -rf "$W/t"
	mkdir -p "$W/t/scripts" "$W/t/loader/probe" "$W/t/loader/cli" \
		"$W/t/loader/tools/beta" "$W/t/bpf" "$W/t/asm"
	cp "$here/scripts/layers.txt" "$W/t/scripts/"
	cd "$W/t" || exit 1
	cat >loader/lib.h <<-'EOF'
	int lib_add(int a, int b);
	EOF
	cat >loader/lib.c <<-'EOF'
	#include "lib.h"
	int lib_add(int a, int b) { return a + b; }
	EOF
	cat >loader/probe/probe.c <<-'EOF'
	#include "lib.h"
	int probe_one(void) { return lib_add(1, 0); }
	EOF
	cat >loader/cli/tool.h <<-'EOF'
	struct tool { const char *name; int (*main)(void); };
	EOF
	cat >loader/cli/main.c <<-'EOF'
	#include "tool.h"
	#include "../../bpf/rec.h"
	extern const struct tool tool_alpha, tool_beta;
	int main(void) { return tool_alpha.main() + tool_beta.main(); }
	EOF
	cat >loader/tools/alpha.c <<-'EOF'
	#include "tool.h"
	#include "lib.h"
	#include "alpha_out.h"
	static int alpha_main(void) { return alpha_print(lib_add(1, 2)); }
	const struct tool tool_alpha = {
		"alpha", alpha_main,
	};
	EOF
	cat >loader/tools/alpha_out.h <<-'EOF'
	int alpha_print(int v);
	EOF
	cat >loader/tools/alpha_out.c <<-'EOF'
	#include "alpha_out.h"
	int alpha_print(int v) { return v; }
	EOF
	cat >loader/tools/beta/beta.h <<-'EOF'
	int beta_count(void);
	EOF
	cat >loader/tools/beta/beta.c <<-'EOF'
	#include "tool.h"
	#include "beta.h"
	static int beta_main(void) { return beta_count(); }
	const struct tool tool_beta = { "beta", beta_main };
	EOF
	cat >loader/tools/beta/count.c <<-'EOF'
	#include "beta.h"
	int beta_count(void) { return 0; }
	EOF
	echo 'struct rec { int v; };' >bpf/rec.h
	echo '#include "rec.h"' >bpf/prog.bpf.c
	echo '#define SYS_x 1' >asm/x86_64.h
}

# run NAME WANT_RC [PATTERN]: check the tree as it is now
run() {
	local name=$1 want=$2 pat=${3:-} f o
	rm -rf "$W/t/obj"
	for f in $(cd "$W/t" && find loader -name '*.c'); do
		o=$W/t/obj/${f#loader/}; o=${o%.c}.o
		mkdir -p "$(dirname "$o")"
		cc -c -w -I"$W/t/loader" -I"$W/t/loader/cli" -I"$W/t/loader/tools" \
			-I"$W/t/loader/tools/beta" -o "$o" "$W/t/$f" || { ko "$name: cannot compile $f"; return; }
	done
	out=$("$check" --root "$W/t" --objs "$W/t/obj" "${BINS[@]}" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ]; then
		ko "$name: exit $rc, not $want:"; printf '%s\n' "$out" | sed 's/^/    /' >&2; return
	fi
	if [ -n "$pat" ] && ! printf '%s\n' "$out" | grep -q -- "$pat"; then
		ko "$name: no line like '$pat' in:"; printf '%s\n' "$out" | sed 's/^/    /' >&2; return
	fi
	# only the one breach: one line of it (a cycle: its edges below)
	if [ "$want" = 1 ] && [ "$(printf '%s\n' "$out" | grep '^layout: [^ ]' | grep -vc ' bytes (limit \|breach(es)')" != 1 ]; then
		ko "$name: more than the one breach:"; printf '%s\n' "$out" | sed 's/^/    /' >&2; return
	fi
	echo "ok: $name"
	ok
}
BINS=()

clean
run "a clean tree passes" 0 "the layout rules hold"

clean; lines 600 >loader/big.c
run "a file of 600 lines passes" 0
clean; lines 601 >loader/big.c
run "a file of 601 lines fails" 1 "^layout: loader/big.c:601: a file of 601 lines, over 600"
clean; lines 601 >loader/cli/big.h
run "a header of 601 lines fails" 1 "^layout: loader/cli/big.h:601: a file of 601 lines, over 600"

# a function of N lines: the return type on a line of its own, the
# parameters on two, a comment with a brace, a string with one, an inner
# block; counted from "static int" to the closing brace
longfn() {
	local n=$1
	{
		echo '#include "lib.h"'
		echo '/* before { */'
		echo 'static int __attribute__((unused))'
		echo 'long_fn(int a,'
		echo '        int b)'
		echo '{'
		echo '	const char *s = "}{";'
		echo '	if (a) { /* } */'
		echo "		b = '}';"
		echo '	}'
		lines $((n - 10)) | sed 's/^/	/'
		echo '	return lib_add(a, b) + (int)s[0];'
		echo '}'
		echo 'static const int table[] = {'
		lines 200
		echo '};'
		echo 'int other(void) { return long_fn(1, 2) + table[0]; }'
	} >loader/probe/long.c
}
clean; longfn 120
run "a function of 120 lines passes" 0
clean; longfn 121
run "a function of 121 lines fails" 1 "^layout: loader/probe/long.c:3: long_fn is a function of 121 lines, over 120"

clean
cat >loader/probe/ping.c <<'EOF'
int pong(int n);
int ping(int n) { return n ? pong(n - 1) : 0; }
EOF
cat >loader/probe/pong.c <<'EOF'
int ping(int n);
int pong(int n) { return n ? ping(n - 1) : 1; }
EOF
run "a call cycle fails" 1 "^layout: call cycle between files: loader/probe/ping.c -> loader/probe/pong.c -> loader/probe/ping.c"
if printf '%s\n' "$out" | grep -q "^layout:   loader/probe/pong.c:2: calls ping of loader/probe/ping.c"; then
	ok; echo "ok: the cycle's edges are named"
else ko "the cycle's edges are not named:"; printf '%s\n' "$out" >&2; fi
clean
cat >loader/probe/ping.c <<'EOF'
int pong(int n);
int ping(int n) { return n ? pong(n - 1) : 0; }
EOF
cat >loader/probe/pong.c <<'EOF'
int pong(int n) { return n; }
EOF
run "calls one way pass" 0

clean; sed -i '1a #include "tool.h"' loader/probe/probe.c
run "the library including the frame fails" 1 \
	'^layout: loader/probe/probe.c:2: includes "tool.h" (loader/cli/tool.h): loader/probe may not include from loader/cli'
clean; sed -i '1a #include "alpha_out.h"' loader/tools/beta/count.c
run "a tool including another tool's header fails" 1 \
	'^layout: loader/tools/beta/count.c:2: includes "alpha_out.h" (loader/tools/alpha_out.h): tool beta may not include the files of tool alpha'
clean; echo '#include "../loader/lib.h"' >>bpf/rec.h
run "bpf/ including loader/ fails" 1 '^layout: bpf/rec.h:2: includes "../loader/lib.h" (loader/lib.h): bpf may not include from loader'
clean; mkdir loader/newroom; echo 'int x;' >loader/newroom/n.c; echo '#include "lib.h"' >>loader/newroom/n.c
run "a folder the table does not know fails" 1 '^layout: loader/newroom/n.c:2: folder loader/newroom has no line in scripts/layers.txt'

clean; truncate -s $((768 * 1024)) "$W/bin"; BINS=("$W/bin")
run "a binary of 768 KiB passes" 0
truncate -s $((768 * 1024 + 1)) "$W/bin"
run "a binary of 768 KiB + 1 byte fails" 1 "^layout: $W/bin: 786433 bytes, over the limit of 768 KiB"
BINS=()

echo "layout tests: $pass passed, $fail failed"
[ "$fail" = 0 ]
