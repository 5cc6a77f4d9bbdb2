#!/usr/bin/env bash
# Processor time and system calls per request of the servers of bench/servers.sh (Weft on 1 and 2 carriers, Go's
# net with GOMAXPROCS 1 and 2), each in turn under wrk on loopback at each concurrency. On a machine where wrk
# shares the cores with the server, throughput is bounded by the server's processor time per request, and unlike
# req/s that figure hardly moves with the machine's load: user and kernel time of the whole process
# (utime/stime of /proc/PID/stat) and of Weft's carrier threads alone (which leaves out the JIT compilers and the
# collector), system calls per request by kind (perf's syscall tracepoints), context switches per request.
#
# Usage, from anywhere:  bench/cpu-per-request.sh   (DURATION=6 WARMUP=10 CONNS="1000 10000" SERVERS="weft-1
#                                                    weft-2 go-1 go-2" by default, "virtual" and "netty" on
#                                                    request; 10,000 connections run 2 x DURATION)
# Each server is loaded WARMUP seconds at 100 connections first (the JIT's C2 code, as in bench/servers.sh), then
# 4 s at each concurrency before it is measured there.
# Needs wrk, go, perf (with tracepoints: run as root or lower kernel.perf_event_paranoid), bc, a JDK 21+.
# SKIP_BUILD=1 uses the benchmarks.jar already built; JAR= another one (an A/B of two builds).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-6}
WARMUP=${WARMUP:-10}
CONNS=${CONNS:-"1000 10000"}
SERVERS=${SERVERS:-"weft-1 weft-2 go-1 go-2"}
JAR=${JAR:-bench/target/benchmarks.jar}
work=$(mktemp -d)
ulimit -n "$(ulimit -Hn)"

source bench/newest-jdk.sh
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -q -B -pl bench -am package -DskipTests
fi
(cd bench/go && go build -o "$work/goload" ./loadserver)
declare -A cmd
source bench/server-commands.sh
server_commands "$JAR" "$work/goload"
calls=(epoll_ctl epoll_wait epoll_pwait read write recvfrom sendto futex accept4 close)

ticks() { awk '{print $14, $15}' "/proc/$1/stat"; }   # user, kernel (clock ticks)
carrier_ticks() {                                      # the same, summed over Weft's carrier threads
  local u=0 s=0 a b t
  for t in /proc/"$1"/task/*; do
    if [[ "$(cat "$t/comm")" == weft-* ]]; then read -r a b < <(awk '{print $14, $15}' "$t/stat"); u=$((u + a)); s=$((s + b)); fi
  done
  echo "$u $s"
}
switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt/ {v += $2} /^nonvoluntary_ctxt/ {n += $2} END {print v + 0, n + 0}'; }
per() { echo "scale=3; $1 / $2" | bc; }               # value, requests
us_per() { echo "scale=3; $1 * 1000000 / $(getconf CLK_TCK) / $2" | bc; }   # ticks, requests

events=raw_syscalls:sys_enter
for c in "${calls[@]}"; do events+=",syscalls:sys_enter_$c"; done
echo "load: $(uptime)"
echo "| server | conns | req/s | p99 | user µs/req | kernel µs/req | carriers' user | carriers' kernel | syscalls/req | $(IFS='|'; echo "${calls[*]}" | sed 's/|/ | /g') | cswitch/req |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|$(printf -- '---:|%.0s' "${calls[@]}")---:|"
for n in $SERVERS; do
  log="$work/$n.log"   # its own file: a reused one could still show the last server's READY
  ${cmd[$n]} > "$log" 2>&1 & p=$!
  for _ in $(seq 600); do grep -q '^READY' "$log" && break; sleep 0.1; done
  port=$(awk '/^READY/ {print $2}' "$log")
  [[ -n "$port" ]] || { echo "$n did not start:" >&2; cat "$log" >&2; exit 1; }
  wrk -t2 -c100 -d"$WARMUP"s "http://127.0.0.1:$port/" > /dev/null   # the JIT warmed up
  for c in $CONNS; do
    d=$(( c >= 10000 ? 2 * DURATION : DURATION ))
    wrk -t2 -c"$c" -d4s --timeout 10s "http://127.0.0.1:$port/" > /dev/null   # warmed up at this concurrency
    read -r u0 s0 < <(ticks $p); read -r cu0 cs0 < <(carrier_ticks $p); read -r v0 i0 < <(switches $p)
    perf stat -x, -p $p -e "$events" -o "$work/perf" -- sleep $((d + 1)) & perf=$!
    sleep 0.5
    wrk -t2 -c"$c" -d${d}s --timeout 10s --latency "http://127.0.0.1:$port/" > "$work/wrk"
    wait $perf
    read -r u1 s1 < <(ticks $p); read -r cu1 cs1 < <(carrier_ticks $p); read -r v1 i1 < <(switches $p)
    reqs=$(awk '/requests in/ {print $1}' "$work/wrk")
    rps=$(awk '/^Requests\/sec:/ {print $2}' "$work/wrk")
    p99=$(awk '/^ +99%/ {print $2}' "$work/wrk")
    counts=$(awk -F, -v r="$reqs" '/sys_enter/ {printf "%.2f | ", $1 / r}' "$work/perf")
    carriers="- | -"
    if [[ $n == weft-* ]]; then carriers="$(us_per $((cu1 - cu0)) "$reqs") | $(us_per $((cs1 - cs0)) "$reqs")"; fi
    echo "| $n | $c | $rps | $p99 | $(us_per $((u1 - u0)) "$reqs") | $(us_per $((s1 - s0)) "$reqs") | $carriers | $counts$(per $((v1 - v0 + i1 - i0)) "$reqs") |"
  done
  kill $p; wait $p 2>/dev/null || true
done
echo "load: $(uptime)"
rm -rf "$work"
