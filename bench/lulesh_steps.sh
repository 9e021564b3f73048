#!/bin/bash
# A LULESH-style program of 30 short loops per step on CPU threads:
# gpu-autopar (the source rewritten with --accept=omp) against g++ -fopenmp
# with OMP_WAIT_POLICY=passive (and the default policy), 2 threads each,
# alternating runs, the median of each. Prints the machine's load first: on a
# shared machine both sides slow down, compare the ratio.
#
#   bash bench/lulesh_steps.sh [BUILD_DIR [RUNS [ELEMENTS [STEPS]]]]
set -euo pipefail
build=${1:-build}
runs=${2:-7}
elements=${3:-27000}
steps=${4:-500}
ninja -C "$build" bench_lulesh_gpu_autopar bench_lulesh_omp >/dev/null
par="$build/bench/bench_lulesh_gpu_autopar"
omp="$build/bench/bench_lulesh_omp"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -a a p d ac pc dc
run() { "$@" "$elements" "$steps" | awk '{print $1, $4}'; }
for ((r = 0; r < runs; ++r)); do
  read -r w c < <(GPU_AUTOPAR_DEVICES=cpu GPU_AUTOPAR_THREADS=2 run "$par"); a+=("$w"); ac+=("$c")
  read -r w c < <(OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive run "$omp"); p+=("$w"); pc+=("$c")
  read -r w c < <(OMP_NUM_THREADS=2 run "$omp"); d+=("$w"); dc+=("$c")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wall us/step, $runs runs each: gpu_autopar ${a[*]}"
echo "                                omp passive ${p[*]}"
echo "                                omp default ${d[*]}"
for what in wall cpu; do
  if [ $what = wall ]; then ma=$(median "${a[@]}"); mp=$(median "${p[@]}"); md=$(median "${d[@]}")
  else ma=$(median "${ac[@]}"); mp=$(median "${pc[@]}"); md=$(median "${dc[@]}"); fi
  awk -v w=$what -v a="$ma" -v p="$mp" -v d="$md" 'BEGIN {
    printf "median %s us/step: gpu_autopar %.1f, omp passive %.1f, omp default %.1f; gpu_autopar / passive %.2fx, / default %.2fx\n",
           w, a, p, d, a / p, a / d }'
done
# Both builds compute the same numbers.
mine=$(GPU_AUTOPAR_DEVICES=cpu GPU_AUTOPAR_THREADS=2 "$par" "$elements" 20 | sed 's/.*checksum //')
theirs=$(OMP_NUM_THREADS=2 "$omp" "$elements" 20 | sed 's/.*checksum //')
echo "checksum and dt after 20 steps: gpu_autopar $mine, omp $theirs"
[ "$mine" = "$theirs" ] || { echo "the two builds disagree" >&2; exit 1; }
