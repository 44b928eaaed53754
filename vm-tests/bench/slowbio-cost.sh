# The cost per I/O of slowbio and biosnoop (informational, as freeze-cost):
# direct 4 KiB reads of a second null_blk disk that completes at once
# (nullb1, made through configfs), IOPS without a tool and with each,
# alternated in one boot; each run with a tool is compared with the mean
# of the baselines just before and after it, and the median of those
# ratios is the tool's (VMTEST_VERBOSE=1 shows them). slowbio probes every
# bio submission (a kprobe, a kretprobe and block_bio_queue) and prints
# nothing here (no call is slower than 10 ms); biosnoop prints every I/O.
. /vmtest/lib.sh
need_tracefs
bench_setup
r=0
while [ $r -lt 2 ]; do
	bench_measure slowbio slowbio -d nullb1
	bench_measure biosnoop biosnoop -d nullb1
	diag "biosnoop: $(grep -c nullb1 $W/out) lines; $(grep 'I/Os printed' $W/err)"
	r=$((r + 1))
done
bench_report slowbio biosnoop
pass
