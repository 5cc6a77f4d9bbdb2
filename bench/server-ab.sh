#!/usr/bin/env bash
# Interleaved A/B of two builds of the 2-carrier Weft load server against Go's (GOMAXPROCS=2) under wrk, started
# as bench/servers.sh starts them, in rounds of rotating order (a burst of load elsewhere hits all three alike).
# Usage: bench/server-ab.sh BASE_JAR NEW_JAR GOLOAD [ROUNDS] [DURATION] [CONNS]   (WARMUP=10 s by default)
#   BASE_JAR, NEW_JAR: bench/target/benchmarks.jar of each build; GOLOAD: Go's load server
#   (cd bench/go && go build -o ../target/goloadserver ./loadserver). Prints req/s, p50, p90, p99 per round, and
#   processor time (user and kernel) per request of the whole server and of Weft's carriers alone (no JIT, no GC):
#   it moves less with the machine's load than req/s, though at a load average above 10 on 2 cores it still
#   moves by a quarter from one round to the next: compare the builds round by round, over many rounds.
#   Each server is first loaded for WARMUP seconds at 100 connections, then a round at each of CONNS (its JIT
#   warmed up, new connections seen), as bench/servers.sh does.
set -euo pipefail
base=$1 new=$2 goload=$3 ROUNDS=${4:-3} DURATION=${5:-8} CONNS=${6:-"1000 100"} WARMUP=${WARMUP:-10}
ulimit -n "$(ulimit -Hn)"
source "$(dirname "$0")/newest-jdk.sh"
work=$(mktemp -d)
declare -A cmd pid port
names=(base new go)
source "$(dirname "$0")/server-commands.sh"
server_commands "$base" "$goload"; cmd[base]=${cmd[weft-2]}
server_commands "$new" "$goload"; cmd[new]=${cmd[weft-2]}; cmd[go]=${cmd[go-2]}
trap cleanup EXIT
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }   # user + kernel (clock ticks)
carrier_ticks() {                                      # the same, summed over Weft's carriers (0 for Go)
  local s=0 t
  for t in /proc/"$1"/task/*; do
    if [[ "$(cat "$t/comm")" == weft-[0-9]* ]]; then s=$((s + $(awk '{print $14 + $15}' "$t/stat"))); fi
  done
  echo "$s"
}
load() { # name connections seconds: "req/s p50 p90 p99" (ms), then µs of processor time per request (all, carriers)
  local p=${pid[$1]} t0 c0
  t0=$(ticks "$p"); c0=$(carrier_ticks "$p")
  wrk -t2 -c"$2" -d"$3"s --timeout 10s --latency "http://127.0.0.1:${port[$1]}/" > "$work/wrk"
  awk -v t=$(($(ticks "$p") - t0)) -v c=$(($(carrier_ticks "$p") - c0)) -v hz="$(getconf CLK_TCK)" '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /^ +50%/ { p50 = ms($2) } /^ +90%/ { p90 = ms($2) } /^ +99%/ { p99 = ms($2) } /^Requests\/sec:/ { rps = $2 }
    /requests in/ { n = $1 }
    END { f = 1e6 / hz / n; printf "%s %s %s %s %.2f %s\n", rps, p50, p90, p99, t * f, c ? sprintf("%.2f", c * f) : "-" }' "$work/wrk"
}
for n in "${names[@]}"; do   # warmed up as bench/servers.sh does: at 100 connections, then at each of CONNS
  start "$n"; load "$n" 100 "$WARMUP" > /dev/null
  for c in $CONNS; do load "$n" "$c" "$DURATION" > /dev/null; done
done
echo "round conns server req/s p50ms p90ms p99ms cpu_us/req carriers_us/req loadavg(1m)"
for ((r = 1; r <= ROUNDS; r++)); do
  for c in $CONNS; do
    order=("${names[@]:r % 3}" "${names[@]:0:r % 3}")
    for n in "${order[@]}"; do
      res=$(load "$n" "$c" "$DURATION")
      echo "$r $c $n $res $(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
