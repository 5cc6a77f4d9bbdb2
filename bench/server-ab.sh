#!/usr/bin/env bash
# Interleaved A/B of two builds of the 2-carrier Weft load server against Go's (GOMAXPROCS=2) under wrk, started
# as bench/servers.sh starts them, in rounds of rotating order (a burst of load elsewhere hits all three alike).
# Usage: bench/server-ab.sh BASE_JAR NEW_JAR GOLOAD [ROUNDS] [DURATION] [CONNS]   (WARMUP=10 s by default)
#   BASE_JAR, NEW_JAR: bench/target/benchmarks.jar of each build; GOLOAD: Go's load server
#   (cd bench/go && go build -o ../target/goloadserver ./loadserver). Prints req/s, p50, p90, p99 per round.
#   Each server is first loaded for WARMUP seconds at 100 connections (its JIT warmed up), as bench/servers.sh does.
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
load() { # name connections seconds: "req/s p50 p99" (ms)
  wrk -t2 -c"$2" -d"$3"s --timeout 10s --latency "http://127.0.0.1:${port[$1]}/" | awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /^ +50%/ { p50 = ms($2) } /^ +90%/ { p90 = ms($2) } /^ +99%/ { p99 = ms($2) } /^Requests\/sec:/ { rps = $2 }
    END { printf "%s %s %s %s\n", rps, p50, p90, p99 }'
}
for n in "${names[@]}"; do start "$n"; load "$n" 100 "$WARMUP" > /dev/null; done
echo "round conns server req/s p50ms p90ms p99ms loadavg(1m)"
for ((r = 1; r <= ROUNDS; r++)); do
  for c in $CONNS; do
    order=("${names[@]:r % 3}" "${names[@]:0:r % 3}")
    for n in "${order[@]}"; do
      res=$(load "$n" "$c" "$DURATION")
      echo "$r $c $n $res $(cut -d' ' -f1 /proc/loadavg)"
    done
  done
done
