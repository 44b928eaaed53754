#!/bin/bash
# The layout rules of docs/ARCHITECTURE.md, checked (make layout, run by
# make test; .ci/run for the binaries of every architecture):
#   - no file over MAX_LINES lines under loader/
#   - no function over MAX_FUNC lines under loader/, from the first line of
#     its signature to its closing brace
#   - no call cycle between files: from the objects the compiler built for
#     this host (nm: file A calls file B if A has undefined a global
#     function that B defines). Data is not a call: probe/attach.c's table
#     of providers names uprobe.c's struct, whose functions call back into
#     attach.c, and that is the direction meant.
#   - no include a layer may not make (the table: scripts/layers.txt)
#   - no binary over MAX_KIB KiB
#
#   scripts/layout.sh [--root DIR] [--layers FILE] [--objs DIR] [BINARY...]
#   scripts/layout.sh --sizes BINARY...        only the binaries' sizes
#
# --root: the tree to check (default: this script's tree); --objs: the host
# objects (build/host/ of `make build/tests/unit`; objects whose loader/
# source no longer exists are left out). Prints one line per breach, naming
# the file and line, and exits 1 if there is any.
set -u
export LC_ALL=C
MAX_LINES=600
MAX_FUNC=120
MAX_KIB=768

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
layers=
objs=
sizes_only=0
while [ $# -gt 0 ]; do
	case $1 in
	--root) root=$2; shift 2 ;;
	--layers) layers=$2; shift 2 ;;
	--objs) objs=$2; shift 2 ;;
	--sizes) sizes_only=1; shift ;;
	-h|--help) sed -n '2,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	-*) echo "layout: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
: "${layers:=$root/scripts/layers.txt}"
bad=$(mktemp /tmp/layout.XXXXXX)
trap 'rm -f "$bad"' EXIT

# ---- binaries ----
for b in "$@"; do
	[ -f "$b" ] || { echo "layout: $b: no such binary (build it first)" >>"$bad"; continue; }
	size=$(stat -c %s "$b")
	echo "layout: $b: $size bytes (limit $MAX_KIB KiB, $((MAX_KIB * 1024)))"
	[ "$size" -le $((MAX_KIB * 1024)) ] ||
		echo "$b: $size bytes, over the limit of $MAX_KIB KiB: make room (make bench shows what each tool adds) or build fewer tools (make TOOLS=\"...\")" >>"$bad"
done

if [ "$sizes_only" = 0 ]; then
cd "$root" || exit 2
[ -d loader ] || { echo "layout: no loader/ under $root" >&2; exit 2; }
[ -f "$layers" ] || { echo "layout: no include table $layers" >&2; exit 2; }

# ---- file and function lengths, includes: one pass over the sources ----
# The first input is the list of every source file (to resolve includes),
# then the table, then the files themselves.
list=$(find loader bpf asm -name '*.[chS]' 2>/dev/null | sort)
printf '%s\n' $list | awk -v layersf="$layers" -v maxl="$MAX_LINES" -v maxf="$MAX_FUNC" '
function reset() { start = 0; eq = 0; pdep = 0; cand = ""; lastid = ""; lastc = "" }
function endfile(   ) {
	if (cur != "" && cur ~ /^loader\// && lines > maxl)
		printf "%s:%d: a file of %d lines, over %d: split it along a seam\n", cur, maxl + 1, lines, maxl
}
function dirof(p) { if (p !~ /\//) return "."; sub(/\/[^\/]*$/, "", p); return p }
function baseof(p) { sub(/.*\//, "", p); return p }
function norm(p,   n, i, k, a, o, out) {
	n = split(p, a, "/"); k = 0
	for (i = 1; i <= n; i++) {
		if (a[i] == "." || a[i] == "") continue
		if (a[i] == ".." && k > 0 && o[k] != "..") { k--; continue }
		o[++k] = a[i]
	}
	out = ""
	for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") o[i]
	return out
}
# the table entry of a folder: itself, or "PARENT/*"
function rule(d) {
	if (d in allow) return d
	if ((dirof(d) "/*") in allow) return dirof(d) "/*"
	return ""
}
function allowed(from, to,   r, n, i, a) {
	if (from == to) return 1
	r = rule(from); n = split(allow[r], a, " ")
	for (i = 1; i <= n; i++)
		if (a[i] == to || (a[i] ~ /\/\*$/ && dirof(to) "/*" == a[i]))
			return 1
	return 0
}
# the tool a file of loader/tools/ belongs to: its folder, or the tool
# file whose name prefixes it (trace_spec.c: trace); "" for none
function owner(p,   b, t, best) {
	if (p !~ /^loader\/tools\//) return ""
	p = substr(p, 14)
	if (p ~ /\//) { sub(/\/.*/, "", p); return p }
	b = p; sub(/\.[^.]*$/, "", b); best = ""
	for (t in toolfile)
		if ((b == t || index(b, t "_") == 1) && length(t) > length(best))
			best = t
	return best
}
FILENAME == "-" { exists[$0] = 1; byname[baseof($0)] = byname[baseof($0)] " " $0; next }
FILENAME == layersf {
	if ($0 ~ /^[ \t]*(#|$)/) next
	f = $1; sub(/:$/, "", f); $1 = ""
	allow[f] = ($0 ~ /^[ \t]*-[ \t]*$/) ? "" : $0
	next
}
FNR == 1 { endfile(); cur = FILENAME; lines = 0; com = 0; cont = 0; dep = 0; reset() }
{ lines = FNR }
/^const struct tool tool_[A-Za-z0-9_]+ *=/ && cur ~ /^loader\/tools\/[^\/]*\.c$/ {
	t = baseof(cur); sub(/\.c$/, "", t); toolfile[t] = 1
}
!com && /^[ \t]*#[ \t]*include[ \t]*"/ {
	inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
	ninc++; incfile[ninc] = cur; incline[ninc] = FNR; incname[ninc] = inc
}
cont { cont = ($0 ~ /\\$/); next }
!com && /^[ \t]*#/ { cont = ($0 ~ /\\$/); next }
cur !~ /^loader\/.*\.[ch]$/ { next }
{
	line = $0; n = length(line); i = 1
	while (i <= n) {
		c = substr(line, i, 1)
		if (com) {
			if (c == "*" && substr(line, i + 1, 1) == "/") { com = 0; i += 2; continue }
			i++; continue
		}
		if (c == "/" && substr(line, i + 1, 1) == "*") { com = 1; i += 2; continue }
		if (c == "/" && substr(line, i + 1, 1) == "/") break
		if (c == " " || c == "\t") { i++; continue }
		if (c == "\"" || c == "'\''") {
			j = i + 1
			while (j <= n) {
				d = substr(line, j, 1)
				if (d == "\\") { j += 2; continue }
				if (d == c) break
				j++
			}
			if (dep == 0) { if (!start) start = FNR; lastc = c }
			i = j + 1; continue
		}
		if (dep > 0) {
			if (c == "{") dep++
			else if (c == "}" && --dep == 0) {
				if (isfunc) {
					len = FNR - fstart + 1
					if (len > maxf)
						printf "%s:%d: %s is a function of %d lines, over %d: split it\n", cur, fstart, fname, len, maxf
					isfunc = 0; reset()
				}
			}
			i++; continue
		}
		if (!start) start = FNR
		if (match(substr(line, i), /^[A-Za-z_][A-Za-z0-9_]*/)) {
			lastid = substr(line, i, RLENGTH); lastc = "a"; i += RLENGTH; continue
		}
		if (c == "(") {
			if (pdep == 0 && lastc == "a" && lastid != "__attribute__")
				cand = lastid
			pdep++
		} else if (c == ")") pdep--
		else if (c == "=" && pdep == 0) eq = 1
		else if (c == ";" && pdep == 0) { reset(); i++; continue }
		else if (c == "{") {
			isfunc = (lastc == ")" && !eq && cand != "")
			if (isfunc) { fstart = start; fname = cand }
			dep = 1
		}
		lastc = c; i++
	}
}
END {
	endfile()
	for (k = 1; k <= ninc; k++) {
		f = incfile[k]; inc = incname[k]; from = dirof(f)
		if (from ~ /^loader\/tools\//) from = "loader/tools/" baseof(from)
		if (rule(from) == "") {
			if (!(from in norule))
				printf "%s:%d: folder %s has no line in scripts/layers.txt: add the folders it may include from\n", f, incline[k], from
			norule[from] = 1
			continue
		}
		# as the compiler: the including file'\''s folder, then the include
		# path (any folder of the tree with that name: the table says which
		# of them this one may use)
		target = ""; to = ""
		p = norm(from "/" inc)
		if (p in exists) target = p
		else if (inc !~ /\//) {
			nc = split(byname[inc], cands, " ")
			for (j = 1; j <= nc; j++)
				if (target == "" || allowed(from, dirof(cands[j])))
					if (target == "" || !allowed(from, dirof(target)))
						target = cands[j]
			if (target == "" && inc ~ /(\.skel\.h|^sysnr\.h)$/) to = "gen"
		}
		if (target != "") to = dirof(target)
		if (to == "") continue # a system header in quotes: the compiler knows
		if (!allowed(from, to))
			printf "%s:%d: includes \"%s\" (%s): %s may not include from %s (scripts/layers.txt)\n", f, incline[k], inc, target != "" ? target : to, from, to
		else if ((ow = owner(f)) != "" && (ot = owner(target)) != "" && ow != ot)
			printf "%s:%d: includes \"%s\" (%s): tool %s may not include the files of tool %s\n", f, incline[k], inc, target, ow, ot
	}
}' - "$layers" $list >>"$bad"

# ---- call cycles between files, from the host objects ----
: "${objs:=$root/build/host}"
if [ ! -d "$objs" ]; then
	echo "no objects in $objs for the call graph: build them first (make layout does), or name them (--objs DIR)" >>"$bad"
else
	objs=$(cd "$objs" && pwd)
	graph=$(find "$objs" -name '*.o' | sort | while read -r o; do
		src=loader/${o#"$objs"/}; src=${src%.o}.c
		[ -f "$src" ] || continue
		nm -g "$o" | awk -v f="$src" '$1 == "U" { print f, "U", $2; next }
			NF == 3 && ($2 == "T" || $2 == "W") { print f, "D", $3 }'
	done)
	printf '%s\n' "$graph" | awk '
	$2 == "D" { def[$3] = $1; next }
	$2 == "U" { nu++; uf[nu] = $1; us[nu] = $3 }
	function strong(v,   k, w, m, comp, size) {
		idx[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
		for (k = 1; k <= nadj[v]; k++) {
			w = adj[v, k]
			if (!(w in idx)) { strong(w); if (low[w] < low[v]) low[v] = low[w] }
			else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
		}
		if (low[v] != idx[v]) return
		size = 0
		do { w = stack[sp--]; on[w] = 0; scc[w] = v; size++ } while (w != v)
		if (size > 1) cyc[++ncyc] = v
	}
	# the shortest cycle through v inside its component (breadth first)
	function cycle(v,   q, h, t, u, k, w, seen, from, path, s) {
		h = 1; t = 1; q[1] = v
		while (h <= t) {
			u = q[h++]
			for (k = 1; k <= nadj[u]; k++) {
				w = adj[u, k]
				if (scc[w] != scc[v]) continue
				if (w == v) {
					path = v; s = u
					while (s != v) { path = s " " path; s = from[s] }
					return v " " path
				}
				if (!(w in seen)) { seen[w] = 1; from[w] = u; q[++t] = w }
			}
		}
	}
	END {
		for (k = 1; k <= nu; k++) {
			a = uf[k]; s = us[k]
			if (!(s in def) || def[s] == a) continue
			b = def[s]
			if (!((a, b) in via)) { via[a, b] = s; adj[a, ++nadj[a]] = b; nodes[a] = 1 }
		}
		n = 0
		for (a in nodes) order[++n] = a
		for (i = 2; i <= n; i++) # sorted, for the same report every time
			for (j = i; j > 1 && order[j - 1] > order[j]; j--) { x = order[j]; order[j] = order[j - 1]; order[j - 1] = x }
		for (i = 1; i <= n; i++) if (!(order[i] in idx)) strong(order[i])
		for (c = 1; c <= ncyc; c++) {
			m = split(cycle(cyc[c]), p, " ")
			line = p[1]
			for (i = 2; i <= m; i++) line = line " -> " p[i]
			print "CYCLE " line
			for (i = 1; i < m; i++) print "EDGE " p[i], p[i + 1], via[p[i], p[i + 1]]
		}
	}' | while read -r kind a b s; do
		if [ "$kind" = CYCLE ]; then
			echo "call cycle between files: $a $b $s"
		else # the first line of a that names s, a declaration aside
			ln=$(grep -n -w -- "$s" "$a" | grep -v -m1 '^[0-9]*:[A-Za-z_][^=]*) *; *$' | cut -d: -f1)
			echo "  $a:${ln:-1}: calls $s of $b"
		fi
	done >>"$bad"
fi
fi

if [ -s "$bad" ]; then
	sed 's/^/layout: /' "$bad" >&2
	echo "layout: $(grep -vc '^  ' "$bad") breach(es) of the layout rules (docs/ARCHITECTURE.md, scripts/layers.txt)" >&2
	exit 1
fi
echo "layout: the layout rules hold"
