#!/bin/sh
# The castling suite's time against an engine at default settings, before
# and after a change, measured in one run on this machine: two uci960
# binaries alternated (old, new, old, new, ...) so that the machine's load
# falls on both alike. Prints each run, the median of each, new/old, and
# the load average before and after.
#
#   scripts/castling-speed-compare.sh OLD_UCI960 NEW_UCI960 [ENGINE] [ROUNDS]
set -eu
old=$1
new=$2
engine=${3:-/usr/games/stockfish}
rounds=${4:-3}
times=$(mktemp)
trap 'rm -f "$times"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$rounds" ]; do
    i=$((i + 1))
    for which in old new; do
        if [ "$which" = old ]; then bin=$old; else bin=$new; fi
        start=$(date +%s%N)
        "$bin" castling-test -- "$engine" >/dev/null 2>&1 || true
        end=$(date +%s%N)
        ms=$(((end - start) / 1000000))
        echo "$which $ms" | tee -a "$times"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() {
    grep "^$1 " "$times" | cut -d' ' -f2 | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
old_ms=$(median old)
new_ms=$(median new)
echo "median: old ${old_ms} ms, new ${new_ms} ms, new/old $(awk -v a="$new_ms" -v b="$old_ms" 'BEGIN { printf "%.2f", a / b }')"
