# barebpf features -j: the kernel's version code, kprobes, block tracepoints.
. /vmtest/lib.sh
need_tracefs
barebpf features -j >$W/out 2>$W/err || fail "barebpf features -j exited $?"
j=$(json_flat $W/out)
exp=$(kernel_version_code)
got=$(echo "$j" | grep -o '"version_code":[0-9]*' | head -n 1 | cut -d: -f2)
[ -n "$got" ] || fail "no numeric \"version_code\" in the JSON"
diag "version_code $got, expected $exp; $(echo "$j" | grep -o '"version_source":"[^"]*"')"
[ "$got" = "$exp" ] || fail "version_code $got ($(printf 0x%06x $got)), expected $exp ($(printf 0x%06x $exp)) for '$(uname -r)' '$(uname -v)'"
echo "$j" | grep -q '"kprobes":true' || fail "\"kprobes\" is not true"
tps=$(echo "$j" | grep -o '"tracepoints":\[[^]]*\]')
for tp in block_rq_issue block_rq_complete; do
	echo "$tps" | grep -q $tp || fail "\"tracepoints\" lacks $tp: ${tps:-no tracepoints key}"
done
pass
