#!/bin/sh
# Runs the distributed farm and the 3-node CommsTime over misbehaving networks: three network namespaces on this
# machine, joined by veth pairs, with 50 ms +- 10 ms of delay, 5% loss, reordering, a partition of 2 s (survived),
# a partition for good (fails within the heartbeat bound) and a 1 Mbit/s link carrying a 16 MB value
# (csp-net's MisbehavingNetworkTest, every scenario). One line per scenario and program:
#
#   sudo bench/netem.sh                  netns: <scenario> / <program>: completed in ... | failed after ...
#
# Needs root, iproute2, iptables and python3 (apt-get install iproute2 iptables python3). Bounded: the whole run is
# stopped after 30 minutes (15 on a busy 2-core machine, the build included); a scenario that hangs fails its test after 6.
set -u
cd "$(dirname "$0")/.." || exit 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
timeout --kill-after=30s 30m mvn -B -ntp -q -pl csp-net -am verify -Dtest=MisbehavingNetworkTest \
    -Dsurefire.failIfNoSpecifiedTests=false -Dweft.netns=all -Dmaven.javadoc.skip=true "$@" >"$log" 2>&1
status=$?
grep -a '^netns:\|skipped:' "$log"
[ "$status" -eq 0 ] || { grep -a 'ERROR\|FAIL' "$log" | head -40; echo "bench/netem.sh: exit $status (log above)"; }
exit "$status"
