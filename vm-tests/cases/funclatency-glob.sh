# A glob over more than 1000 functions ('acpi_*': 1276 on 4.15, 1252 on 5.10):
# funclatency traces every one, or says exactly why not: the functions it
# traces ("Tracing N functions") plus those its summary says could not be
# probed are every distinct match of available_filter_functions, the exit
# is 0 and nothing is left behind, though it starts with a file descriptor
# limit of 256 (it raises it). Attaching 2000 probes takes minutes
# under TCG (each kprobe armed through ftrace: 115 s on 6.1), and
# detaching them longer (one RCU grace period each): 285 s on 4.15, 366 s
# on 5.10 in all. So it runs where the attach paths differ: 4.15
# (kprobe_events only) and 6.1 (the kprobe PMU beside kprobe_events), not
# on every kernel (need_slow). arm64's 6.1 ran it too (149 s of its 806,
# the longest boot of CI); there funccount-glob and detach-background
# attach a hundred to 280 kprobes the same way, through the same PMU.
# vmtest-timeout: 600
. /vmtest/lib.sh
need_slow 4.15 6.1
need_tracefs
G='acpi_*'
M=$(awk '{ print $1 }' $T/available_filter_functions | grep '^acpi_' | grep -v '^__ftrace_invalid_address__' | sort -u | wc -l)
diag "$M functions match '$G'"
[ $M -gt 1000 ] || skip "only $M functions match '$G' here"
t0=$(date +%s)
# 2500 probes, 2500 file descriptors: started with a limit of 256, soft
# and hard, which barebpf must raise (as root, up to fs.nr_open)
start_tool sh -c "ulimit -n 256 && exec barebpf funclatency -d 5 '$G'"
wait_tracing 600
t1=$(date +%s)
wait_exit 600 "-d 5"
[ $RC = 0 ] || fail "exit $RC"
traced=$(sed -n 's/^Tracing \([0-9]*\) functions.*/\1/p' $W/out)
failed=$(sed -n 's/.* \([0-9]*\) of [0-9]* functions could not be probed.*/\1/p' $W/err)
diag "attached in $((t1 - t0)) s: $traced traced, ${failed:-0} not: $(grep 'could not' $W/err)"
[ -n "$traced" ] || fail "no 'Tracing N functions' line"
[ $((traced + ${failed:-0})) = $M ] || fail "$traced traced + ${failed:-0} not probed != $M matches"
grep -v 'could not be probed' $W/err | grep . >$W/other && fail "other messages: $(head -n 3 $W/other)"
no_probes_left "--duration"
pass
