#!/bin/sh
# Runs a command while busy loops compete with it for the processors, to check that a test suite holds on a
# loaded machine (threads descheduled for long, timers late):
#
#   bench/load.sh mvn -B verify             4 busy loops (LOAD=n for another number)
#
# The loops are processes of this script, ended when the command ends; the command's exit status is kept.
set -u
n=${LOAD:-4}
pids=""
i=0
while [ "$i" -lt "$n" ]; do
    sh -c 'while :; do :; done' &
    pids="$pids $!"
    i=$((i + 1))
done
trap 'kill $pids 2>/dev/null' EXIT INT TERM
"$@"
