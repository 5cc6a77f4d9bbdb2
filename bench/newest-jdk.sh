# Sourced by the benchmark scripts: sets JAVA, unless set, to the newest JDK 21+ under /usr/lib/jvm (the JVM the
# servers of servers.sh run on, for virtual threads), or fails saying so.
JAVA=${JAVA:-}
if [[ -z "$JAVA" ]]; then
  for j in /usr/lib/jvm/*/bin/java; do
    v=$("$j" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    if [[ "${v%%.*}" -ge 21 ]]; then JAVA=$j; fi
  done
fi
[[ -n "$JAVA" ]] || { echo "no JDK 21+ under /usr/lib/jvm for virtual threads" >&2; exit 1; }
