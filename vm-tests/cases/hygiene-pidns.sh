# Two runs at once, each in its own PID namespace (two containers sharing the
# host's tracefs, both runs PID 1 there): they leave each other's probes
# alone and both count exactly N.
. /vmtest/lib.sh
need_tracefs
pidns_pair ns ns
pass
