# The cost per I/O of freeze and qenter: direct 4 KiB reads of a second
# null_blk disk that completes at once (nullb1, made through configfs),
# IOPS without a tool and with each, alternated in one boot, twice;
# each run with a tool is compared with the mean of the baselines just
# before and after it (TCG speeds up as it warms, and a busy host stalls
# it), and the median of those ratios is the tool's. A benchmark: it prints
# the figures (make vm-bench) and fails only if a tool fails to run; TCG's
# speed swings too much with the host's load for a pass/fail threshold
# (freeze, which probes only the freeze path, measured 105% in one run and
# 68% in another on the same 6.1 kernel).
. /vmtest/lib.sh
need_tracefs
bench_setup
r=0
while [ $r -lt 2 ]; do
	# (the per-I/O options too, at 20 s more: bench_measure qenter-D
	# qenter -D; bench_measure freeze-C freeze -C; and report them below)
	bench_measure qenter qenter
	bench_measure freeze freeze
	r=$((r + 1))
done
bench_report qenter freeze
pass
