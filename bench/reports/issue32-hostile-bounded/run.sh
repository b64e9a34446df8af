#!/bin/bash
# Quiet-machine hostile run. Rooms opened before the flood play one long game through it (new rooms
# are refused while the flood spends the instance's budgets: that is the point of them).
# With PINNED=1 the hostile clients are kept off the server's core: the server on CPU 0 (PostgreSQL
# moved back to both), the hostile script on CPU 1 at nice 19 (so the rooms' own bench and
# PostgreSQL take the CPU first), the rooms' bench unpinned.
# With HOSTILE_CPU_PERCENT=N (root, cgroup v1 or v2) the hostile script may use at most N % of one
# core, as attackers on other machines would use none of this one: the server still pays for every
# request that reaches it, and the script, being closed-loop, sends what its share lets it.
# Shorter runs for A/B comparisons: BASE_QUESTIONS=0 skips the baseline game, BESIDE_QUESTIONS sets
# the game played through the flood, HOSTILE_MINUTES its length; NODE_FLAGS go to the server's node.
set -u
OUT=${OUT:-/tmp/final/hostile}; PORT=${PORT:-3901}; PINNED=${PINNED:-0}; HOSTILE_CPU_PERCENT=${HOSTILE_CPU_PERCENT:-}
SERVER_CPU=""; HOSTILE_CPU=""
if [ "$PINNED" = 1 ]; then SERVER_CPU="taskset -c 0"; HOSTILE_CPU="nice -n 19 taskset -c 1"; fi
if [ -n "$HOSTILE_CPU_PERCENT" ]; then
  QUOTA=$((HOSTILE_CPU_PERCENT * 1000))
  if [ -d /sys/fs/cgroup/cpu ]; then
    CG=/sys/fs/cgroup/cpu/hostile; mkdir -p $CG; echo 100000 > $CG/cpu.cfs_period_us; echo $QUOTA > $CG/cpu.cfs_quota_us
  else
    CG=/sys/fs/cgroup/hostile; mkdir -p $CG; echo "$QUOTA 100000" > $CG/cpu.max
  fi
  HOSTILE_CPU="sh $(dirname $(readlink -f $0))/in-cgroup.sh $CG"
fi
rm -rf $OUT; mkdir -p $OUT
cd /work/main
DATA_DIR=$OUT/data PORT=$PORT TRUSTED_PROXIES=loopback LOG_LEVEL=warn ADMIN_TOKEN=hostile-admin-token-0123456789abcdef $SERVER_CPU node ${NODE_FLAGS:-} dist/apps/game-server/apps/game-server/src/main.js > $OUT/server.log 2>&1 &
SPID=$!
for i in $(seq 1 60); do sleep 1; curl -sf localhost:$PORT/health/ready >/dev/null && break; done
if [ "$PINNED" = 1 ]; then
  for p in $(pgrep -x postgres); do taskset -p -c 0,1 $p >/dev/null; done
  taskset -p $SPID > $OUT/affinity.txt; for p in $(pgrep -x postgres | head -2); do taskset -p $p >> $OUT/affinity.txt; done
fi
STEADY="node dist/apps/bench/apps/bench/src/main.js steady --url http://127.0.0.1:$PORT --rooms 6 --seconds-per-question 20 --pause-ms 5000 --pause-spread-ms 5000"
echo "$(date -u +%T) baseline" > $OUT/times.txt
[ "${BASE_QUESTIONS:-12}" != 0 ] && timeout 400 $STEADY --questions ${BASE_QUESTIONS:-12} --out $OUT/base > $OUT/base.log 2>&1
grep VmRSS /proc/$SPID/status > $OUT/rss-before.txt
echo "$(date -u +%T) beside starts" >> $OUT/times.txt
timeout 900 $STEADY --questions ${BESIDE_QUESTIONS:-50} --out $OUT/beside > $OUT/beside.log 2>&1 &
BPID=$!
sleep 25
echo "$(date -u +%T) hostile starts" >> $OUT/times.txt
$HOSTILE_CPU node scripts/hostile-clients.mjs --url http://127.0.0.1:$PORT --minutes ${HOSTILE_MINUTES:-10} --pid $SPID > $OUT/hostile.log 2>&1
[ -n "$HOSTILE_CPU_PERCENT" ] && cat $CG/cpu.stat > $OUT/hostile-cpu.stat
echo "$(date -u +%T) hostile ends" >> $OUT/times.txt
wait $BPID
echo "$(date -u +%T) beside ends" >> $OUT/times.txt
sleep 60
grep VmRSS /proc/$SPID/status > $OUT/after.txt
curl -s localhost:$PORT/metrics > $OUT/metrics-after.txt
kill $SPID
echo done > $OUT/done
