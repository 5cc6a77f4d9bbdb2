# The load servers of bench/servers.sh, bench/server-ab.sh and bench/cpu-per-request.sh, by name: sourced by them.
# server_commands JAR GOLOAD [JVM options...]: fills the caller's associative array cmd; needs $JAVA.
server_commands() {
  local jar=$1 goload=$2
  shift 2
  local java_server=("$JAVA" --enable-native-access=ALL-UNNAMED -Xms64m -Xmx1g "$@" -cp "$jar" dev.weft.bench.net.LoadServer)
  cmd[weft-1]="${java_server[*]} weft 1 0"
  cmd[weft-2]="${java_server[*]} weft 2 0"
  cmd[go-1]="env GOMAXPROCS=1 $goload 0"
  cmd[go-2]="env GOMAXPROCS=2 $goload 0"
  cmd[virtual]="${java_server[*]} virtual 0"
  cmd[netty]="${java_server[*]} netty 2 0"
}

# start NAME: starts the server cmd[NAME] (log in $work), sets pid[NAME] and, once it listens, port[NAME].
start() {
  local log="$work/$1.log"
  ${cmd[$1]} > "$log" 2>&1 &
  pid[$1]=$!
  for _ in $(seq 600); do
    if grep -q '^READY' "$log"; then port[$1]=$(awk '/^READY/ {print $2}' "$log"); return; fi
    kill -0 "${pid[$1]}" 2>/dev/null || break
    sleep 0.1
  done
  echo "$1 did not start:" >&2; cat "$log" >&2; exit 1
}
stop() { kill "${pid[$1]}" 2>/dev/null || true; wait "${pid[$1]}" 2>/dev/null || true; }
# cleanup: stops every server of the caller's names and removes $work (the caller's trap on EXIT).
cleanup() { for n in "${names[@]}"; do [[ -n "${pid[$n]:-}" ]] && stop "$n"; done; rm -rf "$work"; }
