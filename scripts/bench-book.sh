#!/usr/bin/env bash
# Measures `uci960 book` (docs/BOOKS.md), each case timed by its own CPU
# time (getrusage of the child: user + system), wall time beside it:
#
#  (a) --plies 4 --moves random --count N (default 1,000,000): positions
#      per CPU second, and the ratio to the baseline measured in the same
#      run, `uci960 positions --method random --count N` (N bare start FENs:
#      what the book costs beyond drawing and printing a start);
#  (b) --start dfrc-all (921,600 lines) and --start all;
#  (c) with ENGINE=1: the Stockfish book of the issue (--plies 6 --moves
#      engine --eval-window -50..50 --nodes 20000 --concurrency 2, COUNT
#      lines, default 1000): the book's own report of its CPU against the
#      engines' (target: under 5 %).
#
# Usage: scripts/bench-book.sh [N]    (ENGINE=1 COUNT=1000 for case c)
# UCI960_BIN=path runs that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
if [ -n "${UCI960_BIN:-}" ]; then
  BIN=$UCI960_BIN
else
  cargo build --release --quiet
  BIN=target/release/uci960
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

python3 - "$BIN" "$N" "$OUT" "${ENGINE:-0}" "${COUNT:-1000}" <<'PY'
import os, resource, subprocess, sys, time
bin_, n, out, engine, count = sys.argv[1:]

def run(args, path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(path, "wb") as f:
        p = subprocess.run([bin_] + args, stdout=f, stderr=subprocess.PIPE)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        sys.exit(f"{args} failed: {p.stderr.decode()}")
    lines = sum(1 for _ in open(path, "rb"))
    return cpu, wall, lines, p.stderr.decode()

print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
base_cpu, base_wall, base_lines, _ = run(
    ["positions", "--method", "random", "--count", n, "--seed", "1", "--format", "fen"],
    os.path.join(out, "base.fen"))
cpu, wall, lines, report = run(
    ["book", "--plies", "4", "--count", n, "--seed", "1"], os.path.join(out, "book.epd"))
assert lines == int(n), lines
keys = len(set(l.split(" hmvc")[0] for l in open(os.path.join(out, "book.epd"))))
print(f"(a) book --plies 4 --count {n}: {cpu:.2f} s CPU ({wall:.2f} s wall), "
      f"{lines / cpu:,.0f} positions per CPU second, {keys} distinct EPDs")
print(f"    baseline positions --method random --count {n}: {base_cpu:.2f} s CPU, "
      f"{base_lines / base_cpu:,.0f} per CPU second; book / baseline CPU = {cpu / base_cpu:.1f}")
print("    " + report.strip().splitlines()[-1])
for start in ["dfrc-all", "all"]:
    cpu, wall, lines, _ = run(["book", "--start", start], os.path.join(out, start + ".epd"))
    print(f"(b) book --start {start}: {lines} lines, {cpu:.2f} s CPU, {wall:.2f} s wall")
if engine == "1":
    sf = subprocess.run(["sh", "-c", "command -v stockfish || echo /usr/games/stockfish"],
                        capture_output=True, text=True).stdout.strip()
    cpu, wall, lines, report = run(
        ["book", "--plies", "6", "--moves", "engine", "--engine", f"cmd={sf}",
         "--eval-window", "-50..50", "--nodes", "20000", "--count", count,
         "--concurrency", "2", "--seed", "1"], os.path.join(out, "sf.epd"))
    print(f"(c) stockfish book, {lines} lines: {wall:.1f} s wall, uci960 + engines {cpu:.1f} s CPU")
    for line in report.strip().splitlines()[-2:]:
        print("    " + line)
PY
