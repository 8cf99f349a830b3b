#!/usr/bin/env bash
# The DFRC 48-52 % selection of issue 23 (docs/BOOKS.md, "WDL windows"):
# N DFRC starts (default 2,000, seeded) evaluated by Stockfish at a fixed
# depth (default 10) with UCI_ShowWDL, every line kept (--draw-window
# 0..1) so that one pass gives the whole distribution:
#
#  - kept: the lines whose engine draw rate lies in 48-52 %, and the kept
#    fraction against fishtest's DFRC_4852_v1.epd, whose selection kept
#    20,797 of the 921,600 DFRC starts (2.26 %) with Stockfish 17.1 at
#    depth 22;
#  - the same fraction from Stockfish 17.1's model of each line's `ce`
#    (what uci960 uses for an engine without WDL);
#  - engine-seconds per kept position (the engines' CPU over the kept
#    lines) and uci960's share of the CPU, from the book's own report;
#  - the checks in the same run: `--draw-window 0.48..0.52` with the
#    engine on the same starts (read once, no --count) must keep exactly
#    the K lines counted here; and the same window without an engine,
#    judging the measured book's stored `wdl` opcodes (re-filtering), must
#    keep the same K lines, in a time compared with the measuring run's.
#
# Usage: scripts/bench-book-wdl.sh [N] [DEPTH]   (CONCURRENCY=2 by default)
# UCI960_BIN=path runs that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000}
DEPTH=${2:-10}
if [ -n "${UCI960_BIN:-}" ]; then
  BIN=$UCI960_BIN
else
  cargo build --release --quiet
  BIN=target/release/uci960
fi
SF=$(command -v stockfish || echo /usr/games/stockfish)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

python3 - "$BIN" "$N" "$DEPTH" "$SF" "$OUT" "${CONCURRENCY:-2}" <<'PY'
import math, os, re, resource, subprocess, sys, time
bin_, n, depth, sf, out, conc = sys.argv[1:]
import chess

def run(args, path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(path, "wb") as f:
        p = subprocess.run([bin_] + args, stdout=f, stderr=subprocess.PIPE)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.returncode, cpu, wall, p.stderr.decode()

print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; {sf}, depth {depth}, {n} DFRC starts")
starts = os.path.join(out, "starts.epd")
subprocess.run([bin_, "book", "--start", "dfrc", "--count", n, "--seed", "1", "-o", starts], check=True,
               stderr=subprocess.DEVNULL)
common = ["book", "--start", f"book:{starts}", "--count", n, "--engine", f"cmd={sf}",
          "--depth", depth, "--concurrency", conc]
code, cpu, wall, report = run(common + ["--draw-window", "0..1"], os.path.join(out, "all.epd"))
assert code == 0, report
m = re.search(r"CPU uci960 ([\d.]+) s, engines ([\d.]+) s \(([\d.]+) %\)", report)
own, engines, share = float(m.group(1)), float(m.group(2)), m.group(3)

AS = [-13.50030198, 40.92780883, -36.82753545, 386.83004070]
BS = [96.53354896, -165.79058388, 90.89679019, 49.29561889]
def model_draw(board, cp):
    material = sum({1: 1, 2: 3, 3: 3, 4: 5, 5: 9, 6: 0}[p.piece_type] for p in board.piece_map().values())
    x = min(max(material, 17), 78) / 58.0
    a = ((AS[0] * x + AS[1]) * x + AS[2]) * x + AS[3]
    b = ((BS[0] * x + BS[1]) * x + BS[2]) * x + BS[3]
    v = cp * a / 100
    w = int(0.5 + 1000 / (1 + math.exp((a - v) / b)))
    l = int(0.5 + 1000 / (1 + math.exp((a + v) / b)))
    return 1000 - w - l

lines = open(os.path.join(out, "all.epd")).read().splitlines()
kept, kept_model, draws = [], 0, []
for line in lines:
    board, ops = chess.Board.from_epd(line, chess960=True)
    w, d, l = map(int, ops["wdl"].split())
    draws.append(d)
    if 480 <= d <= 520:
        kept.append(line)
    if "ce" in ops and 480 <= model_draw(board, ops["ce"]) <= 520:
        kept_model += 1
total = len(lines)
frac = len(kept) / total
print(f"evaluated {total} starts: {wall:.1f} s wall, CPU uci960 {own:.2f} s, engines {engines:.1f} s "
      f"(uci960 = {share} % of the engines' CPU)")
draws.sort()
print(f"engine draw rate: median {draws[total // 2] / 10:.1f} %, 10th-90th percentile "
      f"{draws[total // 10] / 10:.1f}-{draws[9 * total // 10] / 10:.1f} %")
print(f"kept (engine WDL in 48-52 %): {len(kept)} of {total} = {100 * frac:.2f} % "
      f"(published DFRC_4852_v1: 20,797 of 921,600 = 2.26 %; ratio {frac / (20797 / 921600):.2f})")
print(f"kept by Stockfish 17.1's model of ce: {kept_model} of {total} = {100 * kept_model / total:.2f} %")
if kept:
    print(f"engine-seconds per kept position: {engines / len(kept):.2f} s "
          f"(per evaluated start {engines / total:.3f} s)")
# The engine again on the same starts, the window 48-52 %: a book passed
# through is read once, so the run ends after the last start.
args = ["book", "--start", f"book:{starts}", "--engine", f"cmd={sf}",
        "--depth", depth, "--concurrency", conc, "--draw-window", "0.48..0.52"]
code, cpu2, wall2, report2 = run(args, os.path.join(out, "kept.epd"))
again = open(os.path.join(out, "kept.epd")).read().splitlines()
assert code == 0 and again == kept, (code, len(again), len(kept), report2)
print(f"check: --draw-window 0.48..0.52 with the engine on the same starts keeps the same {len(kept)} lines; "
      f"{wall2:.1f} s wall")
# Without an engine: the measured book filtered by its stored wdl opcodes.
args = ["book", "--start", f"book:{os.path.join(out, 'all.epd')}", "--draw-window", "0.48..0.52"]
code, cpu3, wall3, report3 = run(args, os.path.join(out, "refiltered.epd"))
refiltered = open(os.path.join(out, "refiltered.epd")).read().splitlines()
assert code == 0 and refiltered == kept, (code, len(refiltered), len(kept), report3)
assert "no engine" in report3, report3
print(f"check: the same window without an engine (stored wdl opcodes) keeps the same {len(kept)} lines: "
      f"{wall3:.2f} s wall, {cpu3:.2f} s CPU against the measuring run's {wall:.1f} s wall, "
      f"{own + engines:.1f} s CPU (ratio {(own + engines) / max(cpu3, 1e-3):.0f}x)")
PY
