#!/usr/bin/env bash
# Runs every workload on Weft and on its peers (Go, JCSP, Kilim, platform threads, virtual threads) and writes
# bench/results/latest.md (the table, with ratios to Weft) and bench/results/ratios.svg (the chart).
# About 12 minutes on 2 cores. Usage, from anywhere:  bench/run.sh
#
# Environment:
#   JAVA       the java to benchmark with (default: the newest JDK 21+ under /usr/lib/jvm, else java on PATH);
#              virtual threads need 21+, without it their cells say so
#   MVN_ARGS   extra Maven arguments for the build (e.g. -Dmaven.repo.local=...)
#   SKIP_BUILD set to 1 to use the benchmarks.jar already built
set -euo pipefail
cd "$(dirname "$0")/.."
results=bench/results
mkdir -p "$results"

feature() { "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -1; }

if [[ -z "${JAVA:-}" ]]; then
  JAVA=java
  best=0
  for j in /usr/lib/jvm/*/bin/java; do
    [[ -x "$j" ]] || continue
    v=$(feature "$j"); v=${v%%.*}
    if [[ "$v" =~ ^[0-9]+$ && "$v" -ge 21 && "$v" -gt "$best" ]]; then best=$v; JAVA=$j; fi
  done
fi
version=$(feature "$JAVA"); version=${version%%.*}
echo "benchmarking with $JAVA (Java $version)"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -q -B ${MVN_ARGS:-} -pl samples,bench -am package -DskipTests
fi
jar=bench/target/benchmarks.jar

jvm_flags=()
exclude=()
if (( version >= 23 )); then
  jvm_flags+=(--sun-misc-unsafe-memory-access=allow)   # Kilim uses sun.misc.Unsafe; keep its warnings out
fi
if (( version < 21 )); then
  exclude=(-e 'virtualThreads')
fi

start=$(date +%s)
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
# --- times: JMH, short iterations, one fork per benchmark and parameter
jmh_args=(-f 1 -wi 2 -i 3 -w 1s -r 1s -foe false -rf csv -rff "$results/jmh.csv" "${exclude[@]}")
if (( ${#jvm_flags[@]} )); then jmh_args+=(-jvmArgsAppend "${jvm_flags[*]}"); fi
"$JAVA" "${jvm_flags[@]}" -jar "$jar" "${jmh_args[@]}" \
  '^dev\.weft\.bench\.(CommsTime|TokenRing|Mandelbrot|FanIn|Select)Bench\.' 2>&1 | tee "$results/jmh.log" \
  | grep -E '^# (Benchmark|Parameters):|^Result|^[A-Z][A-Za-z]+Bench\.' || true

# --- memory and spawn+join: a fresh JVM per peer
: > "$results/harness.txt"
for peer in weft kilim virtualThreads threads jcsp; do
  if [[ $peer == virtualThreads ]] && (( version < 21 )); then
    for key in blocked blockedAlone spawnJoin; do
      echo "SKIPPED $key.$peer virtual threads need JDK 21+; this run used Java $version" >> "$results/harness.txt"
    done
    continue
  fi
  count=1000000
  if [[ $peer == threads || $peer == jcsp ]]; then count=10000; fi
  echo "memory and spawn+join: $peer ($count processes)"
  for job in "BlockedMemory with" "BlockedMemory alone" "SpawnJoin"; do
    read -r main variant <<< "$job"
    heap=(-Xms3g -Xmx3g)
    [[ $main == BlockedMemory ]] && heap+=(-XX:+UseSerialGC)
    "$JAVA" "${jvm_flags[@]}" "${heap[@]}" -Djdk.virtualThreadScheduler.parallelism=1 -cp "$jar" \
      "dev.weft.bench.harness.$main" "$peer" "$count" $variant 2>&1 | grep '^RESULT' | tee -a "$results/harness.txt" \
      || { key=spawnJoin; [[ $main == BlockedMemory ]] && key=blocked; [[ $variant == alone ]] && key=blockedAlone
           echo "SKIPPED $key.$peer failed in this run" >> "$results/harness.txt"; }
  done
done

# --- Go: the same workloads in Go, when go is on the PATH (built into bench/target)
go_flags=()
if command -v go > /dev/null; then
  echo "go: $(go version)"
  (cd bench/go && go build -o ../target/gopeer .)
  bench/target/gopeer | tee -a "$results/harness.txt"
  go_flags=(-Dbench.go="Go $(go env GOVERSION | sed 's/^go//')")
else
  echo "go is not on the PATH: the Go column will say so"
fi

load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
"$JAVA" "${go_flags[@]}" -Dbench.load="$load_before at the start, $load_after at the end" -Dbench.date="$(date -u +%Y-%m-%d)" -Dbench.commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  -cp "$jar" dev.weft.bench.report.Report "$results"
echo "done in $(( $(date +%s) - start )) s"
