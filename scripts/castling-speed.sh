#!/bin/sh
# Speed of the castling conformance suite, measured in one run on this
# machine: the whole suite at default depth against an engine (Stockfish by
# default), then shakmaty's perft divide against the engine's `go perft` on
# the same positions (the perft rows print both times and their ratio).
#
#   scripts/castling-speed.sh [ENGINE] [PERFT_DEPTH]
set -eu
engine=${1:-/usr/games/stockfish}
depth=${2:-4}
cargo build --release --quiet
bin=target/release/uci960
start=$(date +%s%N)
"$bin" castling-test -- "$engine" >/dev/null || true
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
echo "full suite, default depth, against $engine: ${ms} ms"
echo "perft depth $depth, shakmaty vs $engine, same positions:"
"$bin" castling-test --depth "$depth" --only perft-start,perft-midgame,perft-dfrc -- "$engine" \
  | grep '^perft-'
