#!/bin/sh
# Benchmarks the built-in engine: search nodes/s and perft speed relative to
# shakmaty::perft measured in the same run (see benches/engine.rs).
# Usage: scripts/bench-engine.sh   (prints the summary lines last)
set -eu
cd "$(dirname "$0")/.."
cargo bench --bench engine "$@" 2>&1 | tee /tmp/uci960-bench-engine.log | grep -E '^(perft4|search)/|thrpt|summary:'
