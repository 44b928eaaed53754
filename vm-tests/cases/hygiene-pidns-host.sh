# A run on the host, then one in its own PID namespace (a container, where
# the host run's PID does not exist): the container's start leaves the host
# run's probes alone, and both count exactly N.
. /vmtest/lib.sh
need_tracefs
pidns_pair host ns
pass
