#!/bin/bash
# The pinned run of this report: the script of issue32-hostile-bounded with the hostile clients kept
# off the server's core (PINNED=1, read there).
OUT=${OUT:-/tmp/final/hostile-pinned} PORT=${PORT:-3902} PINNED=1 exec bash "$(dirname "$0")/../issue32-hostile-bounded/run.sh"
