#!/usr/bin/env bash
# Request/response servers under wrk on loopback: Weft (a fiber per connection, 1 and 2 carriers), Go's net
# (a goroutine per connection, GOMAXPROCS 1 and 2), JDK virtual threads with blocking sockets, and raw Netty
# handlers (2 event loops), all answering small HTTP/1.1 keep-alive requests. Interleaved rounds in one run at
# 100, 1,000 and 10,000 connections (throughput, p50, p99), then the memory per idle connection and the
# threads of each server holding 10,000 idle connections: heap after a full collection, and thread stacks plus
# native memory (NMT's Thread, Other (Netty's direct buffers), NIO and Internal) for the JVMs; the runtime's
# memstats for Go (heap in use after runtime.GC(), goroutine stacks); RSS growth beside them, which counts a
# JVM's uncollected garbage and misses Go's untouched pages. Writes bench/results/servers.md.
#
# Usage, from anywhere:  bench/servers.sh   (ROUNDS=3 DURATION=5 WARMUP=10 CONNS="100 1000 10000" by default;
#                                            10,000 connections run 3 x DURATION; CONNS= measures memory only)
# Needs wrk (Debian: apt-get install wrk), go, python3, and a JDK 21+ (the newest under /usr/lib/jvm).
# MVN_ARGS: extra Maven arguments for the build; SKIP_BUILD=1 uses the benchmarks.jar already built.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}
WARMUP=${WARMUP:-10}
CONNS=${CONNS-"100 1000 10000"}   # set but empty: memory only
IDLE=${IDLE:-10000}
out=bench/results/servers.md
work=$(mktemp -d)
mkdir -p bench/results

ulimit -n "$(ulimit -Hn)"   # 10,000 connections: a descriptor each, in the server and in wrk (each its own limit)
if (( $(ulimit -n) < IDLE + 1000 )); then
  echo "ulimit -n is $(ulimit -n): too few descriptors for $IDLE connections" >&2; exit 1
fi

source bench/newest-jdk.sh
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  mvn -q -B ${MVN_ARGS:-} -pl bench -am package -DskipTests
fi
(cd bench/go && go build -o "$work/goload" ./loadserver)
jar=bench/target/benchmarks.jar
JCMD=${JAVA%/java}/jcmd   # of the servers' JDK
declare -A cmd pid port
names=(weft-1 weft-2 go-1 go-2 virtual netty)
source bench/server-commands.sh
server_commands "$jar" "$work/goload"

trap cleanup EXIT

load() { # name connections seconds: one wrk run, "req/s p50 p99" (latencies in ms)
  wrk -t2 -c"$2" -d"$3"s --timeout 10s --latency "http://127.0.0.1:${port[$1]}/" | awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) } /^Requests\/sec:/ { rps = $2 }
    END { printf "%s %s %s\n", rps, p50, p99 }'
}

echo "load: $(uptime)"
results="$work/results"
touch "$results"
# Started, then warmed up: WARMUP seconds at 100 connections (the JITs compile the request path), then a round
# at each other concurrency (new connections, more of them ready at each poll): code compiled while a JVM
# served 100 connections has never seen an accept, a first read, a poll with hundreds of sockets ready, and a
# JVM first meeting them mid-round throws that code away and compiles it again (a second of C2's time in a
# 6-second round at 1,000 connections, which then served a quarter fewer requests than the next rounds; see
# docs/benchmarks.md). A server that has run a while has seen them all; Go's server has no JIT.
warm_up() { # name
  local c
  load "$1" 100 "$WARMUP" > /dev/null
  for c in $CONNS; do
    if (( c != 100 )); then load "$1" "$c" $(( c >= 10000 ? 3 * DURATION : DURATION )) > /dev/null; fi
  done
}
if [[ -n "${CONNS// /}" ]]; then
  for n in "${names[@]}"; do start "$n"; warm_up "$n"; done
fi
for ((r = 1; r <= ROUNDS; r++)); do
  for c in $CONNS; do
    order=("${names[@]:r % ${#names[@]}}" "${names[@]:0:r % ${#names[@]}}")   # another server first each round
    for n in "${order[@]}"; do
      # 10,000 connections take seconds to connect (the backlog overflows and SYNs are sent again): run longer
      echo "$r $c $n $(load "$n" "$c" $(( c >= 10000 ? 3 * DURATION : DURATION )))" | tee -a "$results"
    done
  done
done
load_after=$(uptime)
for n in "${names[@]}"; do stop "$n"; done

# Memory per idle connection and threads: a fresh server (the JVMs tracking their native memory), IDLE
# connections that never send.
server_commands "$jar" "$work/goload" -XX:NativeMemoryTracking=summary
idle_client() { # port: holds IDLE connections open until killed
  python3 -c '
import socket, sys, time
conns = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for _ in range(int(sys.argv[2]))]
print("OPEN", flush=True)
time.sleep(3600)' "$1" "$IDLE"
}
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
memory_bytes() { # name: "heap native" in bytes, after a full collection (see the header)
  local p=${pid[$1]}
  if [[ "$1" == go-* ]]; then
    local log="$work/$1.log" seen
    seen=$(grep -c '^MEM' "$log" || true)
    kill -USR1 "$p"
    for _ in $(seq 300); do (( $(grep -c '^MEM' "$log" || true) > seen )) && break; sleep 0.1; done
    grep '^MEM' "$log" | tail -1 | awk '{print $2, $3}'
  else
    "$JCMD" "$p" GC.run > /dev/null
    local heap native
    heap=$("$JCMD" "$p" GC.heap_info | grep -o 'used [0-9]*K' | head -1 | tr -dc 0-9)
    native=$("$JCMD" "$p" VM.native_memory summary | awk '/^- +(Thread|Other|NIO|Internal) \(/ {
      match($0, /committed=[0-9]+KB/); kb += substr($0, RSTART + 10, RLENGTH - 12) } END { print kb + 0 }')
    echo "$(( heap * 1024 )) $(( native * 1024 ))"
  fi
}
fds() { ls "/proc/$1/fd" | wc -l; }
memory="$work/memory"
for n in "${names[@]}"; do
  start "$n"
  p=${pid[$n]}
  before=$(rss_kib "$p"); fds_before=$(fds "$p"); read -r heap0 native0 <<< "$(memory_bytes "$n")"
  idle_client "${port[$n]}" > "$work/idle.log" 2>&1 & client=$!
  for _ in $(seq 1200); do (( $(fds "$p") >= fds_before + IDLE )) && break; sleep 0.1; done
  sleep 2   # the last connections' fibers, goroutines or threads start and reach their read
  after=$(rss_kib "$p"); threads=$(awk '/^Threads:/ {print $2}' "/proc/$p/status")
  read -r heap1 native1 <<< "$(memory_bytes "$n")"
  jthreads=-
  if [[ "$n" != go-* ]]; then   # threads of Java code (JVM-internal ones left out: GC, compiler, signals)
    jthreads=$("$JCMD" "$p" Thread.print 2>/dev/null | grep '^"' | grep ' #' \
      | grep -Ev '"(Reference Handler|Finalizer|Signal Dispatcher|Service Thread|Monitor Deflation Thread|C[12] CompilerThread[0-9]*|Sweeper thread|Notification Thread|Common-Cleaner|Attach Listener|DestroyJavaVM|Java2D Disposer)"' \
      | sed 's/^"\([^"]*\)".*/\1/' | tr '\n' ',' | sed 's/,$//')
  fi
  echo "$n $(( (heap1 - heap0) / IDLE )) $(( (native1 - native0) / IDLE )) $(( (after - before) * 1024 / IDLE ))" \
    "$threads ${jthreads// /_}" | tee -a "$memory"
  kill "$client"; wait "$client" 2>/dev/null || true
  stop "$n"
done

command="ROUNDS=$ROUNDS DURATION=$DURATION WARMUP=$WARMUP CONNS=\"$CONNS\" IDLE=$IDLE bench/servers.sh"
jdk=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')
python3 - "$results" "$memory" "$out" "$ROUNDS" "$DURATION" "$load_after" "$IDLE" "$command" "$jdk" <<'PY'
import statistics, sys, collections
results, memory, out, rounds, duration, load, idle, command, jdk = sys.argv[1:10]
runs = collections.defaultdict(list)
for line in open(results):
    r, c, n, rps, p50, p99 = line.split()
    runs[(int(c), n)].append((float(rps), float(p50), float(p99)))
names = ["weft-1", "weft-2", "go-1", "go-2", "virtual", "netty"]
label = {"weft-1": "Weft, 1 carrier", "weft-2": "Weft, 2 carriers", "go-1": "Go net, GOMAXPROCS=1",
         "go-2": "Go net, GOMAXPROCS=2", "virtual": "JDK virtual threads", "netty": "raw Netty, 2 loops"}
lines = [f"`{command}`, the JVMs on JDK {jdk}.", "",
         f"Loopback, wrk -t2 --latency, {rounds} interleaved rounds of {duration} s per server and concurrency "
         f"({3 * int(duration)} s at 10,000 connections, which take seconds to connect) "
         "(medians of the rounds); the machine's load average at the end: "
         f"{load.split('load average:')[-1].strip()}; figures move from run to run: "
         "read the ratios, from the same run.", ""]
for c in sorted({c for c, _ in runs}):
    lines += [f"**{c:,} connections**", "",
              "| server | req/s | p50 ms | p99 ms | Weft-2 req/s / this | this p99 / Weft-2 p99 |",
              "|---|---:|---:|---:|---:|---:|"]
    med = {n: tuple(statistics.median(x[i] for x in runs[(c, n)]) for i in range(3)) for n in names if (c, n) in runs}
    w = med["weft-2"]
    for n in names:
        if n in med:
            rps, p50, p99 = med[n]
            lines.append(f"| {label[n]} | {rps:,.0f} | {p50:.2f} | {p99:.2f} | {w[0] / rps:.2f} | {p99 / w[2]:.2f} |")
    lines.append("")
lines += [f"**{int(idle):,} idle connections** (a fresh server; bytes per connection: heap after a full collection; thread "
          "stacks and native memory (JVMs: NMT's Thread, Other, NIO, Internal; Go: goroutine stacks); their sum; "
          "RSS growth, for reference; threads of the process, and of Java code for the JVMs)", "",
          "| server | heap | stacks + native | heap + stacks + native | RSS growth | OS threads | Java threads |",
          "|---|---:|---:|---:|---:|---:|---|"]
for line in open(memory):
    n, heap, native, rss, threads, jthreads = line.split(" ", 5)
    heap, native = int(heap), int(native)
    lines.append(f"| {label[n]} | {heap:,} | {native:,} | {heap + native:,} | {int(rss):,} | {threads} "
                 f"| {jthreads.strip().replace('_', ' ')} |")
open(out, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
