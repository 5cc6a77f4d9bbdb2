#!/usr/bin/env bash
# Short programs, as tests, command-line tools and a launcher's worker JVMs live: each sample is a fresh process
# that runs a workload at a tenth of its size (warm-up), then in full (about 100 ms), on one worker (Go:
# GOMAXPROCS=1), and prints its figure. Weft on JDK 17, on JDK 25, and on JDK 25 with an AOT cache (JEP 483/515,
# trained once by a run of the same program), beside Go's binary; the samples of one round are interleaved in a
# new random order each round; the table gives medians. Writes bench/results/first-100ms.md.
# Usage, from anywhere:  bench/first-100ms.sh [rounds]      (default 11 rounds; about 1 minute on 2 cores)
#
# Environment: JAVA17, JAVA25 (defaults: java on PATH; the newest JDK 25+ under /usr/lib/jvm), SKIP_BUILD=1 to
# use the benchmarks.jar already built, MVN_ARGS extra Maven arguments, BASELINE_JAR another build's
# benchmarks.jar to run beside this one on JDK 17 (an A/B of a change).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-11}
results=bench/results
mkdir -p "$results"
feature() { "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -1; }

JAVA17=${JAVA17:-java}
if [[ -z "${JAVA25:-}" ]]; then
  for j in /usr/lib/jvm/*/bin/java; do
    v=$(feature "$j"); v=${v%%.*}
    if [[ "$v" =~ ^[0-9]+$ && "$v" -ge 25 ]]; then JAVA25=$j; fi
  done
fi
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -q -B ${MVN_ARGS:-} -pl samples,bench -am package -DskipTests
fi
jar=bench/target/benchmarks.jar
(cd bench/go && go build -o ../target/gopeer .)
main=dev.weft.bench.startup.ShortRun
workloads=(ring1 ring64 commsTime)

variants=(weft-jdk17 go)
declare -A cmd=([weft-jdk17]="$JAVA17 -cp $jar $main" [go]="bench/target/gopeer short-")
if [[ -n "${BASELINE_JAR:-}" ]]; then
  variants+=(baseline-jdk17)
  cmd[baseline-jdk17]="$JAVA17 -cp $BASELINE_JAR $main"
fi
if [[ -n "${JAVA25:-}" ]]; then
  aot=bench/target/short-run.aot
  rm -f "$aot"
  # The AOT cache recipe (docs/startup.md): one training run writes the cache, later runs start from it.
  "$JAVA25" -XX:AOTCacheOutput="$aot" -cp "$jar" "$main" "${workloads[@]}" > /dev/null
  variants+=(weft-jdk25 weft-jdk25-aot)
  cmd[weft-jdk25]="$JAVA25 -cp $jar $main"
  cmd[weft-jdk25-aot]="$JAVA25 -XX:AOTCache=$aot -cp $jar $main"
fi

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A samples
for ((r = 1; r <= rounds; r++)); do
  runs=()
  for w in "${workloads[@]}"; do for v in "${variants[@]}"; do runs+=("$w $v"); done; done
  while read -r w v; do
    c=${cmd[$v]}
    if [[ $v == go ]]; then out=$(GOMAXPROCS=1 ${c}$w); else out=$($c "$w"); fi
    samples[$w.$v]+="$(sed -n "s/^RESULT $w //p" <<< "$out") "
  done < <(printf '%s\n' "${runs[@]}" | shuf)
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
{
  echo "# Short programs: a fresh process per sample, ~100 ms each"
  echo
  echo "\`bench/first-100ms.sh $rounds\`: $rounds rounds, interleaved in random order, medians (ns per hop or per"
  echo "communication; lower is better). $(nproc) cores; load average before $load_before, after $load_after."
  echo
  printf '| workload |'; for v in "${variants[@]}"; do printf ' %s |' "$v"; done
  for v in "${variants[@]}"; do [[ $v == go ]] || printf ' %s / go |' "$v"; done; echo
  printf '|---|'; for v in "${variants[@]}"; do printf -- '---:|'; done
  for v in "${variants[@]}"; do [[ $v == go ]] || printf -- '---:|'; done; echo
  for w in "${workloads[@]}"; do
    go=$(median <<< "${samples[$w.go]}")
    printf '| %s |' "$w"
    for v in "${variants[@]}"; do printf ' %s |' "$(median <<< "${samples[$w.$v]}")"; done
    for v in "${variants[@]}"; do
      [[ $v == go ]] || printf ' %.2fx |' "$(awk -v a="$(median <<< "${samples[$w.$v]}")" -v b="$go" 'BEGIN {print a / b}')"
    done
    echo
  done
} | tee "$results/first-100ms.md"
