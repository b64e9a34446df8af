#!/bin/sh
# Runs a command inside the cgroup at $1 (its cgroup.procs): in-cgroup.sh CGROUP_DIR COMMAND [ARGS...]
CG=$1; shift
echo $$ > "$CG/cgroup.procs"
exec "$@"
