#!/bin/bash
# The shared run of this report: the script of issue32-hostile-bounded, on this build.
OUT=${OUT:-/tmp/final/hostile-door} exec bash "$(dirname "$0")/../issue32-hostile-bounded/run.sh"
