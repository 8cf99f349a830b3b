#!/usr/bin/env bash
# Measures the proxy's cost, in one run, against baselines measured in the
# same run (these machines are noisy; only the ratios mean something):
#  (a) isready/readyok round trips: direct, through `uci960 proxy`, and
#      through Debian's polyglot in UCI-to-UCI mode (the long-standing
#      adapter, the anchor); with Stockfish and with a trivial engine that
#      answers at once (so the adapters' own cost is visible).
#  (b) throughput of engine `info … pv …` lines: through `cat`, through the
#      proxy forwarding unchanged, and through the proxy translating castles.
# usage: scripts/bench-proxy.sh [ROUND_TRIPS] [INFO_LINES]
# env: SECTIONS="rtt flood" (either or both), PROXY_BIN (default: the
# release build; e.g. an older build to compare), STOCKFISH, POLYGLOT.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100000}
LINES=${2:-1000000}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
POLYGLOT=${POLYGLOT:-/usr/games/polyglot}
SECTIONS=${SECTIONS:-rtt flood}

cargo build --release --quiet --bin uci960 --example trivial_engine --example uci_bench_client
BIN=${PROXY_BIN:-target/release/uci960}
TRIVIAL=$PWD/target/release/examples/trivial_engine
CLIENT=target/release/examples/uci_bench_client

rtt() { "$CLIENT" rtt "$N" -- "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2f", a / b }'; }

if [[ " $SECTIONS " == *" rtt "* ]]; then
echo "## isready round trips ($N each; median and p99 in microseconds)"
echo
echo "| engine | path | median µs | p99 µs | median ratio vs direct |"
echo "|---|---|---|---|---|"
for engine in "$TRIVIAL" "$STOCKFISH"; do
    name=$(basename "$engine")
    read -r dm dp < <(rtt "$engine")
    echo "| $name | direct | $dm | $dp | 1.00 |"
    read -r pm pp < <(rtt "$BIN" proxy -- "$engine")
    echo "| $name | uci960 proxy | $pm | $pp | $(ratio "$pm" "$dm") |"
    if [ -x "$POLYGLOT" ]; then
        read -r gm gp < <(rtt "$POLYGLOT" -noini -ec "$engine")
        echo "| $name | polyglot -noini -ec | $gm | $gp | $(ratio "$gm" "$dm") |"
    fi
done
echo
fi

[[ " $SECTIONS " == *" flood "* ]] || exit 0
FEN960="position fen 1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w KQkq - 0 1"
PV960="d2d4 d7d5 e1h1 e8b8 c2c4 c7c6"
flood() { "$CLIENT" flood "$@"; }
echo "## info-line throughput ($LINES lines with a 6-move pv)"
echo
echo "| path | lines/s | ratio vs cat |"
echo "|---|---|---|"
read -r _ _ cat1 < <(flood -- sh -c "exec $TRIVIAL $LINES | cat")
echo "| engine piped through cat | $cat1 | 1.00 |"
read -r _ _ fwd < <(flood -- "$BIN" proxy -- "$TRIVIAL" "$LINES")
echo "| uci960 proxy, forwarding unchanged | $fwd | $(ratio "$fwd" "$cat1") |"
read -r _ _ cat2 < <(flood -- sh -c "exec $TRIVIAL $LINES '$PV960' | cat")
read -r _ _ tr < <(flood --position "$FEN960" -- "$BIN" proxy -- "$TRIVIAL" "$LINES" "$PV960")
echo "| uci960 proxy, translating castles (Chess960 pv, 2 castles a line; vs cat of the same lines) | $tr | $(ratio "$tr" "$cat2") |"
if [ -x "$POLYGLOT" ]; then
    read -r _ _ pg < <(flood -- "$POLYGLOT" -noini -ec "$TRIVIAL $LINES" 2>/dev/null || echo "0 0 0")
    echo "| polyglot -noini -ec, forwarding | $pg | $(ratio "$pg" "$cat1") |"
fi
