#!/bin/sh
# usage: scripts/mkman.sh BAREBPF VERSION [TOOL]
# Writes on stdout the man page barebpf(8), or TOOL(8), made from the text
# of `BAREBPF [TOOL] --help`: the page is that text, so the two cannot
# drift apart. Its usage lines become SYNOPSIS, the rest DESCRIPTION, kept
# as written (no fill: the help is laid out in columns already). `make dist`
# runs it with a binary for this host; the text is the same on every
# architecture.
set -eu
bin=$1 version=$2 tool=${3:-}

help=$("$bin" ${tool:+"$tool"} --help)
if [ -n "$tool" ]; then
	name=$tool
	summary=$("$bin" --help | sed -n "s/^  $tool  *//p")
	[ -n "$summary" ] || { echo "mkman: no summary for $tool in --help" >&2; exit 1; }
else
	name=barebpf
	summary="BPF tracing tools for legacy and embedded Linux, one static binary"
fi

# roff: a backslash is \e, a minus \- (so that options copy as ASCII), and
# a line starting with . or ' is text, not a request (\&).
esc() {
	sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
}

upper=$(printf '%s' "$name" | tr a-z A-Z)
printf '.TH %s 8 "" "barebpf %s" "barebpf"\n' "$upper" "$version"
printf '.SH NAME\n%s \\- %s\n' "$name" "$(printf '%s\n' "$summary" | esc)"
# The usage lines: up to the first empty line.
printf '.SH SYNOPSIS\n.nf\n'
printf '%s\n' "$help" | sed '/^$/q' | sed '/^$/d' | esc
printf '.fi\n.SH DESCRIPTION\n.nf\n'
printf '%s\n' "$help" | sed '1,/^$/d' | esc
printf '.fi\n.SH SEE ALSO\n'
if [ -n "$tool" ]; then
	printf '.BR barebpf (8)\n'
else
	for t in $("$bin" --list-tools); do
		printf '.BR %s (8)\n' "$t"
	done
fi
