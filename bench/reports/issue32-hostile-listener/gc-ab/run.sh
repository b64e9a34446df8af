#!/bin/bash
# ABBA: default GC vs --single-threaded-gc, hostile script capped at 50% of a core, 3-min flood.
cd /work/main   # the checkout these runs used; each OUT was copied here after
for r in def1 st1 st2 def2; do
  case $r in st*) F=--single-threaded-gc;; *) F=;; esac
  OUT=/tmp/s40/gcab/$r PORT=3921 HOSTILE_CPU_PERCENT=50 HOSTILE_MINUTES=3 BASE_QUESTIONS=0 BESIDE_QUESTIONS=24 NODE_FLAGS="$F" \
    bash bench/reports/issue32-hostile-bounded/run.sh
  echo "$r $(date -u +%T)" >> /tmp/s40/gcab/progress
done
