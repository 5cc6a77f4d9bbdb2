#!/usr/bin/env bash
# Builds this project with its coverage profile, the recipe of docs/weaving.md ("Coverage"), and checks that
# JaCoCo's report counted javac's class file (no woven form of a method in it) with the pausable method's
# lines covered, and that the jar holds the woven class without JaCoCo's probes. Then builds it again without
# clean, which must fail: JaCoCo would instrument the class the last build wove.
#
# Usage: csp-maven-plugin/src/it/jacoco-report/run.sh [LOCAL_REPO]
# Weft is installed into LOCAL_REPO (default: csp-maven-plugin/target/it-repo, a copy of ~/.m2/repository),
# never into ~/.m2; JaCoCo's Maven plugin is fetched into it if it is not there yet.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
repo=${1:-$root/csp-maven-plugin/target/it-repo}
work=$root/csp-maven-plugin/target/it/jacoco-report

[ -d "$repo" ] || { mkdir -p "$(dirname "$repo")"; cp -r ~/.m2/repository "$repo"; }
echo "== installing Weft into $repo"
mvn -B -ntp -q -o -f "$root/pom.xml" -Dmaven.repo.local="$repo" -pl csp-core -am install -DskipTests -Dmaven.javadoc.skip=true

rm -rf "$work"
mkdir -p "$work"
cp -r "$here/pom.xml" "$here/src" "$work"
echo "== mvn clean verify -Pcoverage in $work"
mvn -B -ntp -f "$work/pom.xml" -Dmaven.repo.local="$repo" clean verify -Pcoverage > "$work/build.log" \
    || { tail -50 "$work/build.log"; exit 1; }

python3 - "$work" <<'PY'
import sys, xml.etree.ElementTree as ET, zipfile
work = sys.argv[1]
root = ET.parse(work + "/target/site/jacoco/jacoco.xml").getroot()
cls = root.find(".//class[@name='app/PositiveFilter']")
assert cls is not None, "the report has no app/PositiveFilter"
def counter(node, kind):
    c = node.find("counter[@type='%s']" % kind)
    return (0, 0) if c is None else (int(c.get("missed")), int(c.get("covered")))
methods = {m.get("name") + m.get("desc"): m for m in cls.findall("method")}
woven = [k for k in methods if "Ldev/weft/csp/Fiber;" in k]
assert not woven, "the report counted woven class files: " + str(woven)
copy = methods["copy(Ldev/weft/csp/ChannelInput;Ldev/weft/csp/ChannelOutput;)I"]
assert counter(copy, "LINE")[0] == 0, "lines of copy not covered: " + str(counter(copy, "LINE"))
assert counter(copy, "BRANCH")[1] > 0, "no branch of copy covered"
with zipfile.ZipFile(work + "/target/jacoco-report-1.0.jar") as jar:
    data = jar.read("app/PositiveFilter.class")
assert b"dev/weft/csp/abi/Woven" in data, "the jar's class is not woven"
assert b"$jacocoInit" not in data, "the jar's class is instrumented by JaCoCo"
for kind in ("BRANCH", "LINE", "INSTRUCTION"):
    missed, covered = counter(cls, kind)
    print("app.PositiveFilter %-11s %d of %d covered" % (kind, covered, missed + covered))
print("ok: the report counts the source; the jar is woven")
PY

echo "== mvn verify -Pcoverage again, without clean: must fail"
if mvn -B -ntp -o -f "$work/pom.xml" -Dmaven.repo.local="$repo" verify -Pcoverage > "$work/build-again.log"; then
    echo "the build without clean passed: its report counts the weave"; exit 1
fi
grep -q "jacoco:instrument instrumented class files that an earlier build had woven (app/PositiveFilter.class)" \
    "$work/build-again.log" || { tail -30 "$work/build-again.log"; exit 1; }
echo "ok: without clean, the build fails and says why"
