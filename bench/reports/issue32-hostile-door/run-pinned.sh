#!/bin/bash
# As bench/reports/issue32-hostile-bounded/run.sh, with the hostile clients kept off the server's
# core: the server on CPU 0 (PostgreSQL moved back to both), the hostile script on CPU 1 at nice 19
# (so the rooms' own bench and PostgreSQL take the CPU first), the rooms' bench unpinned.
set -u
OUT=${OUT:-/tmp/final/hostile-pinned}; rm -rf $OUT; mkdir -p $OUT
cd /work/main
DATA_DIR=$OUT/data PORT=3902 TRUSTED_PROXIES=loopback LOG_LEVEL=warn ADMIN_TOKEN=hostile-admin-token-0123456789abcdef taskset -c 0 node dist/apps/game-server/apps/game-server/src/main.js > $OUT/server.log 2>&1 &
SPID=$!
for i in $(seq 1 60); do sleep 1; curl -sf localhost:3902/health/ready >/dev/null && break; done
for p in $(pgrep -x postgres); do taskset -p -c 0,1 $p >/dev/null; done
taskset -p $SPID > $OUT/affinity.txt; for p in $(pgrep -x postgres | head -2); do taskset -p $p >> $OUT/affinity.txt; done
STEADY="node dist/apps/bench/apps/bench/src/main.js steady --url http://127.0.0.1:3902 --rooms 6 --seconds-per-question 20 --pause-ms 5000 --pause-spread-ms 5000"
echo "$(date -u +%T) baseline" > $OUT/times.txt
timeout 400 $STEADY --questions 12 --out $OUT/base > $OUT/base.log 2>&1
grep VmRSS /proc/$SPID/status > $OUT/rss-before.txt
echo "$(date -u +%T) beside starts" >> $OUT/times.txt
timeout 900 $STEADY --questions 50 --out $OUT/beside > $OUT/beside.log 2>&1 &
BPID=$!
sleep 25
echo "$(date -u +%T) hostile starts" >> $OUT/times.txt
nice -n 19 taskset -c 1 node scripts/hostile-clients.mjs --url http://127.0.0.1:3902 --minutes 10 --pid $SPID > $OUT/hostile.log 2>&1
echo "$(date -u +%T) hostile ends" >> $OUT/times.txt
wait $BPID
echo "$(date -u +%T) beside ends" >> $OUT/times.txt
sleep 60
grep VmRSS /proc/$SPID/status > $OUT/after.txt
curl -s localhost:3902/metrics > $OUT/metrics-after.txt
kill $SPID
echo done > $OUT/done
