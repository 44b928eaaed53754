# The discovery of struct sock's fields (loader/mods/sockoff.c) against
# the kernel's own BTF: tcpconnect -v with BAREBPF_FIELDS=discover (the
# discovery, forced) names the same offset and size for each field as
# without it (the BTF), for all 8 of sockoff.c's fields (skc_state too:
# -v names it though tcpconnect does not read it; IPv6's where the kernel
# has it). Kernels without BTF skip: tcpconnect-lo and
# tcpaccept-lo check the discovery's offsets there by their output.
. /vmtest/lib.sh
need_tracefs
[ -e /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux"
lo_up
offs() { grep -E '^sock\.__sk_common\.[a-z0-9_]+ at offset [0-9]+ \([0-9]+ bytes\)' $1 | sed 's/:.*//' | sort; }
barebpf tcpconnect -v --duration 0.1 >$W/out 2>$W/btf || fail "tcpconnect (BTF) failed: $(tail -n 1 $W/btf)"
BAREBPF_FIELDS=discover barebpf tcpconnect -v --duration 0.1 >$W/out 2>$W/disc ||
	fail "tcpconnect (BAREBPF_FIELDS=discover) failed: $(tail -n 1 $W/disc)"
offs $W/btf >$W/btf.offs; offs $W/disc >$W/disc.offs
n=$(wc -l <$W/btf.offs)
want=6; have_ipv6 && want=8
[ $n = $want ] || { cat $W/btf; fail "$n offsets from the BTF, expected $want"; }
grep -q 'BTF' $W/btf || fail "the first run's offsets are not from the BTF"
grep -q 'discovered' $W/disc || fail "BAREBPF_FIELDS=discover did not discover"
cmp -s $W/btf.offs $W/disc.offs || { diff $W/btf.offs $W/disc.offs; fail "the discovery disagrees with the BTF"; }
diag "$(tr '\n' ';' <$W/disc.offs)"
pass
