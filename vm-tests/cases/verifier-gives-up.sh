# barebpf run on a small program the verifier gives up on
# (vm-tests/bpf/vmtest_explode.bpf.c: 2^24 paths it cannot prune): E2BIG,
# and the user sees the verifier's log (its tail and total size if huge)
# and why in words: the number of instructions processed and the limit
# (131072 before 5.2: on 4.15 "run on 5.2+ where the limit is 1M"). On 4.15
# this once showed no log at all (the 16 MiB log buffer got EINVAL).
. /vmtest/lib.sh
need_tracefs
o=/vmtest/bpf/vmtest_explode.bpf.o
[ -f $o ] || skip "$(cat /vmtest/bpf/why 2>/dev/null || echo "no $o")"
timeout -s KILL 80 barebpf run -d 1 $o >$W/out 2>$W/err
rc=$?
diag "exit $rc, $(wc -c <$W/err) bytes on stderr; $(grep -E '^--- verifier log' $W/err); $(tail -n 1 $W/err)"
[ $rc = 137 ] && fail "still running after 80 s"
[ $rc = 1 ] || fail "exit $rc"
grep -qE '^--- verifier log' $W/err || fail "no verifier log shown"
grep -q '^--- end of verifier log ---$' $W/err || fail "no end of the verifier log"
grep -q 'Argument list too long: the verifier gave up' $W/err || fail "no explanation of E2BIG"
case $(kernel_version_code) in
# before 5.2: the 131072-instruction limit, and the way out
[0-9]|[0-9][0-9]|[0-9][0-9][0-9]|[0-9][0-9][0-9][0-9]|[0-9][0-9][0-9][0-9][0-9]|3[0-2][0-9][0-9][0-9][0-9])
	grep -q 'run on 5.2+ where the limit is 1M' $W/err || fail "no 'run on 5.2+' advice before 5.2"
	# the log took the buffer past its 4 MiB step, to 4.15's cap
	b=$(sed -n 's/^--- verifier log: its last [0-9]* of \([0-9]*\) bytes.*/\1/p' $W/err)
	[ "${b:-0}" -gt 4194304 ] || fail "a verifier log of '$b' bytes: not past 4 MiB" ;;
esac
no_probes_left "the refused load"
pass
