#!/usr/bin/env bash
# Runs the cluster graphs on Spindle (./spindle bench cluster) and on Dask
# (spindle-bench/dask/dask_bench.py), one after the other, saves both JSON outputs and prints the
# ratios Spindle / Dask (spindle-bench/dask/ratios.py).
#
#   spindle-bench/scripts/dask-compare.sh OUT_DIR [OPTIONS...]
#
# OPTIONS go to both sides: --configs inprocess,processes --shapes tiny,tree,skewed,shuffle
# --rounds N --warmup N --threads N --inprocess-workers N --process-workers N --size quick|tiny.
# Needs Debian's python3-distributed and python3-dask (Dask 2022.12) for /usr/bin/python3:
#   apt-get install -y python3-distributed python3-dask
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [[ $# -lt 1 || "$1" == -* ]]; then
  echo "usage: $0 OUT_DIR [--configs ...] [--shapes ...] [--rounds N] [--warmup N] [--threads N] [--size quick|tiny]" >&2
  exit 2
fi
out="$1"
shift
python=/usr/bin/python3
if ! "$python" -c 'import distributed' 2>/dev/null; then
  echo "$0: Dask is not installed for $python; run: apt-get install -y python3-distributed python3-dask" >&2
  exit 1
fi
mkdir -p "$out"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "cores: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "java: $(java -version 2>&1 | head -n 1)"
  echo "dask: $("$python" -c 'import distributed; print(distributed.__version__)')"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "options: $*"
} > "$out/environment.txt"

# the Hazelcast members want these flags (see spindle-cluster-hazelcast/README.md); the worker
# JVMs get the ones this JVM has
export SPINDLE_JAVA_OPTS="${SPINDLE_JAVA_OPTS:-} @$root/spindle-cluster-hazelcast/jvm.args"
echo "== Spindle: ./spindle bench cluster $*" >&2
"$root/spindle" bench cluster --json --progress lines "$@" > "$out/spindle.json"
echo "== Dask: dask_bench.py $*" >&2
"$python" "$root/spindle-bench/dask/dask_bench.py" --progress "$@" > "$out/dask.json"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/environment.txt"
"$python" "$root/spindle-bench/dask/ratios.py" "$out/spindle.json" "$out/dask.json" | tee "$out/ratios.txt"
