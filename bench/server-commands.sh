# The load servers of bench/servers.sh and bench/cpu-per-request.sh, by name: sourced by both.
# server_commands JAR GOLOAD [JVM options...]: fills the caller's associative array cmd; needs $JAVA.
server_commands() {
  local jar=$1 goload=$2
  shift 2
  local java_server=("$JAVA" -Xms64m -Xmx1g "$@" -cp "$jar" dev.weft.bench.net.LoadServer)
  cmd[weft-1]="${java_server[*]} weft 1 0"
  cmd[weft-2]="${java_server[*]} weft 2 0"
  cmd[go-1]="env GOMAXPROCS=1 $goload 0"
  cmd[go-2]="env GOMAXPROCS=2 $goload 0"
  cmd[virtual]="${java_server[*]} virtual 0"
  cmd[netty]="${java_server[*]} netty 2 0"
}
