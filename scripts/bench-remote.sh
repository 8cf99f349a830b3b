#!/usr/bin/env bash
# The remote link's cost, against baselines measured in the same run:
#  (a) isready/readyok round trips through `uci960 proxy --remote` over
#      loopback TLS to `uci960 serve`, against the engine itself (direct
#      pipes) and the local `uci960 proxy` on the same engine (ratios);
#      everything pinned to one core with `taskset -c 0`, as the proxy
#      benchmark's inter-process latency is;
#  (b) bytes per move on the wire (TLS) and as UCI text, from the server's
#      per-connection count, over python-chess games through the link;
#  (c) the server's memory (VmRSS) per idle connection (each with its
#      engine: a trivial one, so the server's own cost shows) and the
#      memory of one Stockfish engine.
# usage: scripts/bench-remote.sh [ROUND_TRIPS] [CONNECTIONS]
# env: STOCKFISH (default /usr/games/stockfish).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20000}
CONNS=${2:-50}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}

cargo build --release --quiet --bin uci960 --example trivial_engine --example uci_bench_client
BIN=$PWD/target/release/uci960
TRIVIAL=$PWD/target/release/examples/trivial_engine
CLIENT=$PWD/target/release/examples/uci_bench_client
PIN=(taskset -c 0)
command -v taskset >/dev/null || PIN=()

dir=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT

token=bench-token-0123456789abcdef
printf '%s\n' "$token" > "$dir/token.txt"
printf %s "$token" | sha256sum > "$dir/tokens.sha256"

# Starts a server; sets PORT and SERVER_PID. The lines-per-second ceiling
# is lifted: the round trips below go faster than its default (5000 a
# second), and the link's cost, not the ceiling's pace, is measured.
serve() {
    "${PIN[@]}" "$BIN" serve --listen 127.0.0.1:0 --token-file "$dir/tokens.sha256" \
        --cert "$dir/cert.pem" --key "$dir/key.pem" --max-connections $((CONNS + 10)) \
        --max-engines $((CONNS + 10)) --max-lines-per-second 1000000 "$@" 2> "$dir/serve.log" &
    SERVER_PID=$!
    pids+=("$SERVER_PID")
    for _ in $(seq 200); do
        PORT=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\) .*/\1/p' "$dir/serve.log")
        [ -n "$PORT" ] && return
        sleep 0.05
    done
    echo "serve did not start"; cat "$dir/serve.log"; exit 1
}
remote() { echo proxy --remote "uci960s://127.0.0.1:$PORT/$1" --token-file "$dir/token.txt" --known-hosts "$dir/known_hosts"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2f", a / b }'; }
rss_kb() { awk '/VmRSS/ { print $2 }' "/proc/$1/status"; }

serve --engine trivial="$TRIVIAL" --engine sf="$STOCKFISH"

echo "## isready round trips ($N each, taskset -c 0; median and p99 in microseconds)"
echo
echo "| engine | path | median µs | p99 µs | median ratio vs direct | median ratio vs local proxy |"
echo "|---|---|---|---|---|---|"
for name in trivial sf; do
    engine=$TRIVIAL; [ "$name" = sf ] && engine=$STOCKFISH
    read -r dm dp < <("${PIN[@]}" "$CLIENT" rtt "$N" -- "$engine")
    echo "| $(basename "$engine") | direct (pipes, no proxy) | $dm | $dp | 1.00 | - |"
    read -r lm lp < <("${PIN[@]}" "$CLIENT" rtt "$N" -- "$BIN" proxy -- "$engine")
    echo "| $(basename "$engine") | uci960 proxy (local pipes) | $lm | $lp | $(ratio "$lm" "$dm") | 1.00 |"
    # shellcheck disable=SC2046
    read -r rm rp < <("${PIN[@]}" "$CLIENT" rtt "$N" -- "$BIN" $(remote "$name"))
    echo "| $(basename "$engine") | uci960 proxy --remote (loopback TLS) | $rm | $rp | $(ratio "$rm" "$dm") | $(ratio "$rm" "$lm") |"
done
echo

echo "## bytes per move (python-chess, 4 Chess960 games, Stockfish nodes:2000)"
echo
before=$(grep -c 'closed:' "$dir/serve.log" || true)
# shellcheck disable=SC2046
summary=$(python3 tests/python/play960.py 4 nodes:2000 5 "$BIN" $(remote sf) | sed -n 's/^SUMMARY //p')
plies=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['plies'])" "$summary")
for _ in $(seq 100); do
    [ "$(grep -c 'closed:' "$dir/serve.log" || true)" -gt "$before" ] && break
    sleep 0.05
done
line=$(grep 'closed:' "$dir/serve.log" | tail -n1)
read -r tin txin tout txout < <(echo "$line" | sed -n 's/.*bytes in \([0-9]*\) (text \([0-9]*\)), out \([0-9]*\) (text \([0-9]*\)).*/\1 \2 \3 \4/p')
echo "| direction | TLS bytes/move | UCI text bytes/move | TLS/text |"
echo "|---|---|---|---|"
echo "| client → server | $((tin / plies)) | $((txin / plies)) | $(ratio "$tin" "$txin") |"
echo "| server → client | $((tout / plies)) | $((txout / plies)) | $(ratio "$tout" "$txout") |"
echo "($plies plies)"
echo

echo "## server memory"
echo
base=$(rss_kb "$SERVER_PID")
holders=()
for _ in $(seq "$CONNS"); do
    # shellcheck disable=SC2046
    (sleep 600 | "$BIN" $(remote trivial) >/dev/null 2>&1) &
    holders+=($!)
done
for _ in $(seq 400); do
    [ "$(grep -c 'started, pid' "$dir/serve.log")" -ge "$CONNS" ] && break
    sleep 0.05
done
sleep 0.5
with=$(rss_kb "$SERVER_PID")
threads=$(ls "/proc/$SERVER_PID/task" | wc -l)
echo "| measure | value |"
echo "|---|---|"
echo "| server VmRSS idle | $base kB |"
echo "| server VmRSS with $CONNS idle connections (each with its engine) | $with kB |"
echo "| per idle connection | $(( (with - base) / CONNS )) kB |"
echo "| server threads with $CONNS connections | $threads |"
for h in "${holders[@]}"; do pkill -P "$h" 2>/dev/null || true; kill "$h" 2>/dev/null || true; done
# One Stockfish (default Hash) through the link: its own memory.
coproc SF { "$BIN" $(remote sf) 2>/dev/null; }
echo "uci" >&"${SF[1]}"; echo "isready" >&"${SF[1]}"
while read -r l <&"${SF[0]}"; do [ "$l" = readyok ] && break; done
sfpid=$(grep 'started, pid' "$dir/serve.log" | tail -n1 | sed 's/.*pid //')
echo "| one Stockfish engine (default Hash), VmRSS | $(rss_kb "$sfpid") kB |"
echo "quit" >&"${SF[1]}"
