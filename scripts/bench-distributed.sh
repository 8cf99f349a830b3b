#!/usr/bin/env bash
# Measures sharded matches (docs/DISTRIBUTED.md, "Benchmarks"), each
# against a baseline measured in the same run (ratios, not absolute times):
#
#  (a) merge of 100,000 games (4 shards of 25,000: state files and PGNs
#      made from one real game, renumbered; each game's span recorded as
#      `match` records it, with a dummy hash: merge does not re-hash):
#      `uci960 merge RUN --pgn` wall time (goal: at most 2 s), against
#      `cat` of the same PGN bytes; the same with states without spans
#      (older states: the PGNs are split at their tag sections); and
#      `merge` of the states alone (no PGN), which is what one shard's
#      read of its siblings for the shared SPRT costs at that size (done at
#      most once a second: rundir::SIBLING_INTERVAL);
#  (b) the runner's overhead per shard: GAMES games as 4 shards run one
#      after the other, against the same games in one process;
#  (c) games per second: 4 shards at once (each one game at a time) against
#      one process with --concurrency 2, on this machine.
#
# Usage: scripts/bench-distributed.sh [GAMES]   (default 40)
# UCI960_BIN=path runs that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-40}
if [ -n "${UCI960_BIN:-}" ]; then
  BIN=$UCI960_BIN
else
  cargo build --release --quiet
  BIN=target/release/uci960
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

python3 - "$BIN" "$OUT" "$GAMES" <<'PY'
import json, os, re, subprocess, sys, time
bin_, out, games = sys.argv[1], sys.argv[2], int(sys.argv[3])

def wall(args, **kw):
    start = time.monotonic()
    p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)
    took = time.monotonic() - start
    if p.returncode not in (0, 1):
        sys.exit(f"{args[:3]} failed ({p.returncode}): {p.stderr.decode()[-500:]}")
    return took

game = ["--engine", "name=a", "depth=1", "--engine", "name=b", "depth=2",
        "--seed", "7", "--maxmoves", "40", "--random-plies", "2"]

# (a) 100,000 games: one real game as the template; a real shard state
# (its identity and settings hash) for a 100,000-game tournament.
tpl = os.path.join(out, "tpl")
subprocess.run([bin_, "match", *game, "--games", "2", "--pgn", tpl + ".pgn"],
               check=True, capture_output=True)
first = open(tpl + ".pgn").read().split("\n\n[Event ")[0]
if not first.endswith("\n\n"):
    first += "\n\n"
big = os.path.join(out, "big")
old = os.path.join(out, "old")
ident = os.path.join(out, "ident")
# Start the shard and stop it at once (SIGTERM after its state file
# appears) to get a real identity.
p = subprocess.Popen([bin_, "match", *game, "--games", "100000", "--shard", "1/4",
                      "--dir", ident], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
path = os.path.join(ident, "shard-1-of-4.state.json")
deadline = time.monotonic() + 60
while not os.path.exists(path) and time.monotonic() < deadline:
    time.sleep(0.01)
p.terminate(); p.wait()
state = json.load(open(path))
os.makedirs(big, exist_ok=True)
os.makedirs(old, exist_ok=True)
n, total_bytes = 100_000, 0
for i in range(1, 5):
    st = dict(state)
    st["identity"] = dict(state["identity"], shard=f"{i}/4")
    recs, parts, length = [], [], 0
    for g in range(1, n + 1):
        if ((g - 1) // 2) % 4 != i - 1:
            continue
        text = re.sub(r'\[Round "\d+"\]', f'[Round "{g}"]', first, count=1)
        size = len(text.encode())
        parts.append(text)
        recs.append({"number": g, "result": "Draw", "termination": "threefold",
                     "notation_errors": [0, 0],
                     "pgn": {"offset": length, "len": size, "hash": 0}})
        length += size
    st["games"], st["pgn_bytes"] = recs, length
    total_bytes += length
    with open(os.path.join(big, f"shard-{i}-of-4.pgn"), "w") as f:
        f.write("".join(parts))
    with open(os.path.join(big, f"shard-{i}-of-4.state.json"), "w") as f:
        json.dump(st, f)
    os.link(os.path.join(big, f"shard-{i}-of-4.pgn"), os.path.join(old, f"shard-{i}-of-4.pgn"))
    for r in recs:
        del r["pgn"]
    with open(os.path.join(old, f"shard-{i}-of-4.state.json"), "w") as f:
        json.dump(st, f)
pgns = [os.path.join(big, f"shard-{i}-of-4.pgn") for i in range(1, 5)]
best = lambda f, k=3: min(f() for _ in range(k))
cat = best(lambda: wall(["sh", "-c", 'cat "$@" > ' + os.path.join(out, "cat.pgn"), "sh", *pgns]))
merge = best(lambda: wall([bin_, "merge", big, "--pgn", os.path.join(out, "merged.pgn")]))
split = best(lambda: wall([bin_, "merge", old, "--pgn", os.path.join(out, "merged-old.pgn")]))
states = best(lambda: wall([bin_, "merge", big]))
if open(os.path.join(out, "merged.pgn"), "rb").read() != open(os.path.join(out, "merged-old.pgn"), "rb").read():
    sys.exit("the merged PGNs with and without spans differ")
print(f"(a) merge of {n} games ({total_bytes / 1e6:.0f} MB of PGN): {merge:.2f} s "
      f"(goal <= 2 s); cat of the same bytes {cat:.2f} s; ratio {merge / cat:.1f}x")
print(f"    states without spans (PGNs split at their tags): {split:.2f} s; "
      f"ratio {split / cat:.1f}x to cat")
print(f"    states only (= one shared-SPRT read of 100,000 games): {states:.3f} s, "
      f"{states * 100:.1f} % of the 1 s between reads")

# (b) overhead per shard: 4 shards one after the other vs one process.
one = wall([bin_, "match", *game, "--games", str(games), "--pgn", os.path.join(out, "one.pgn")])
seq = 0.0
for i in range(1, 5):
    seq += wall([bin_, "match", *game, "--games", str(games), "--shard", f"{i}/4",
                 "--dir", os.path.join(out, "seq")])
print(f"(b) {games} games: one process {one:.2f} s, 4 shards in turn {seq:.2f} s: "
      f"ratio {seq / one:.2f}, {(seq - one) / 4 * 1000:.0f} ms overhead per shard")

# (c) 4 shards at once vs one process with --concurrency 2.
conc = wall([bin_, "match", *game, "--games", str(games), "--concurrency", "2",
             "--pgn", os.path.join(out, "conc.pgn")])
start = time.monotonic()
procs = [subprocess.Popen([bin_, "match", *game, "--games", str(games), "--shard", f"{i}/4",
                           "--dir", os.path.join(out, "par")],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i in range(1, 5)]
for p in procs:
    p.wait()
par = time.monotonic() - start
print(f"(c) games per second: one process --concurrency 2: {games / conc:.2f}; "
      f"4 shards at once: {games / par:.2f}; ratio {conc / par:.2f}")
PY
