#!/bin/bash
# Interleaved: A = default marks, B = OVERLOAD_COMMIT_WAIT_MS=15 (above the fastest commit of the last minute).
cd /work/main
OUT=${OUT:-/tmp/final/ovab}; mkdir -p $OUT
for i in 1 2; do
  for v in A B; do
    ENV="OVERLOAD_ANONYMOUS_EVENT_LOOP_DELAY_MS=30"
    [ $v = B ] && ENV="$ENV OVERLOAD_COMMIT_WAIT_MS=15"
    echo "$(date -u +%T) $v$i start" >> $OUT/times.txt
    timeout 900 node dist/apps/bench/apps/bench/src/main.js overload --capacity 1000 --hold-seconds 60 --overload-seconds 60 --server-env "$ENV" --out $OUT/$v$i > $OUT/$v$i.log 2>&1
  done
done
echo "$(date -u +%T) done" >> $OUT/times.txt
