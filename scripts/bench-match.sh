#!/usr/bin/env bash
# Measures the match runner's own cost: 100 games of Stockfish (nodes=1000)
# against itself at concurrency 2. Reports wall time, the runner process's
# own CPU time (from /proc/PID/stat, sampled until it exits), the engines'
# CPU time (the runner's reaped children, from wait4), the ratio runner/engines
# (target: under 5 %) and the runner's CPU per move.
#
# Usage: scripts/bench-match.sh [GAMES] [NODES]
# UCI960_BIN=path runs that binary instead of building the release one
# (A/B runs of an old and a new binary).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-100}
NODES=${2:-1000}
SF=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
if [ -n "${UCI960_BIN:-}" ]; then
  BIN=$UCI960_BIN
else
  cargo build --release --quiet
  BIN=target/release/uci960
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

python3 - "$BIN" "$SF" "$GAMES" "$NODES" "$OUT" <<'PY'
import os, re, subprocess, sys, time
bin_, sf, games, nodes, out = sys.argv[1:]
pgn = os.path.join(out, "bench.pgn")
cmd = [bin_, "match", "--engine", f"cmd={sf}", f"nodes={nodes}", "name=sf-a",
       "--engine", f"cmd={sf}", f"nodes={nodes}", "name=sf-b",
       "--games", games, "--concurrency", "2", "--start", "random", "--seed", "1",
       "--pgn", pgn]
tick = os.sysconf("SC_CLK_TCK")
start = time.monotonic()
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
own = 0.0
while p.poll() is None:
    try:
        with open(f"/proc/{p.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        # fields[11], fields[12] = utime, stime of the process itself
        own = (int(fields[11]) + int(fields[12])) / tick
    except (OSError, IndexError, ValueError):
        pass
    time.sleep(0.05)
wall = time.monotonic() - start
# wait4 already happened in poll(); the rusage of the child and its reaped
# children is in RUSAGE_CHILDREN of this process.
import resource
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
total = ru.ru_utime + ru.ru_stime
engines = total - own
text = open(pgn).read()
plies = sum(int(n) for n in re.findall(r'\[PlyCount "(\d+)"\]', text))
ngames = text.count("[Round ")
print(f"games                {ngames}")
print(f"moves (plies)        {plies}")
print(f"wall time            {wall:.1f} s")
print(f"engines CPU          {engines:.2f} s")
print(f"runner CPU           {own:.2f} s")
print(f"runner / engines     {100 * own / engines:.2f} %")
print(f"runner CPU per move  {1e6 * own / max(plies, 1):.1f} us")
PY
