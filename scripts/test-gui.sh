#!/usr/bin/env bash
# A GUI driven for real, as a user adds uci960 to it: XBoard (Debian's
# `xboard`, which runs UCI engines through Polyglot) plays fischerandom
# games headless under Xvfb in match mode (-mg), with uci960's proxy in
# front of Stockfish as one engine:
#   1. `uci960 proxy --log DIR/p-%p.log -- stockfish` against Fairy-Stockfish;
#      a screenshot of the board is taken mid-game (ImageMagick `import`);
#   2. `sf960` (a copy of uci960) started with no arguments, finding
#      `sf960.toml` beside it, against Fairy-Stockfish again;
#   3. the proxy in front of Stockfish against uci960's built-in engine
#      (`uci960 engine`, through Polyglot too), at a lower fixed depth: the
#      built-in engine of a debug build needs seconds a move at depth 8.
# Every saved PGN is read back by python-chess (tests/python/check_pgn.py):
# Chess960 starts, every move legal, every game finished. Everything this
# script starts is stopped on exit (trap); every wait is bounded. It ends
# with `N passed, N failed` and exits non-zero on any failure.
#
# Environment: UCI960_BIN (default: target/debug/uci960, built here),
# UCI960_GUI_SCREENSHOT=PATH to keep the mid-game screenshot (the one in
# docs/ was made so), UCI960_GUI_KEEP=1 to keep the work directory.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PATH="$PATH:/usr/games"

passed=0
failed=0
ok() {
  echo "ok     $1"
  passed=$((passed + 1))
}
bad() {
  echo "FAILED $1"
  failed=$((failed + 1))
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

# ----- what the GUI run needs (installed only when missing) -----
bash scripts/install-deps.sh || bad "install-deps"
packages=(xboard polyglot xvfb xauth imagemagick xfonts-base stockfish fairy-stockfish)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "test-gui: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  apt=("${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)
  "${apt[@]}" update -qq >/dev/null
  "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    { bad "apt-get install ${missing[*]}"; finish; }
fi
for tool in xboard polyglot Xvfb import identify stockfish fairy-stockfish python3; do
  command -v "$tool" >/dev/null || { bad "$tool not found"; finish; }
done

if [ -z "${UCI960_BIN:-}" ]; then
  cargo build --locked --quiet --bin uci960 || { bad "cargo build"; finish; }
  UCI960_BIN=$ROOT/target/debug/uci960
fi

# ----- a work directory, and the trap that stops all this script starts -----
work=$(mktemp -d "${TMPDIR:-/tmp}/uci960-gui.XXXXXX")
groups=() # process groups started here (setsid), each killed on exit
cleanup() {
  local g
  for g in "${groups[@]}"; do
    kill -TERM -- "-$g" 2>/dev/null
  done
  for g in "${groups[@]}"; do
    for _ in $(seq 20); do
      kill -0 -- "-$g" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL -- "-$g" 2>/dev/null
  done
  if [ "${UCI960_GUI_KEEP:-}" = 1 ]; then
    echo "test-gui: work directory kept: $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

# ----- Xvfb on a display no one else uses (-displayfd picks a free one) -----
setsid Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp \
  3>"$work/display" >"$work/xvfb.log" 2>&1 &
groups+=($!)
if wait_for 30 test -s "$work/display"; then
  export DISPLAY=":$(head -n1 "$work/display")"
  ok "Xvfb started on $DISPLAY"
else
  bad "Xvfb did not start: $(tail -n3 "$work/xvfb.log")"
  finish
fi

# Start positions from the project's own generator, each played twice with
# colours reversed (-lpi -2), as the docs tell GUI users to do.
"$UCI960_BIN" positions --count 4 --seed 960 --format fen >"$work/book.fen" ||
  bad "uci960 positions"

# Runs XBoard in match mode: NAME GAMES FIRST_CMD FIRST_DIR SECOND_CMD
# [DEPTH, default 8]. In the background (its own process group); its pid
# in $xboard_pid.
start_xboard() {
  local name=$1 games=$2 fcp=$3 fd=$4 scp=$5 depth=${6:-8}
  mkdir -p "$work/$name/home"
  # HOME: XBoard reads and writes ~/.xboardrc; this run must not use the
  # user's. The fixed depth keeps games short whatever the machine's load;
  # -tc only bounds them; draws are adjudicated after 120 moves.
  HOME=$work/$name/home setsid timeout -k 5 240 xboard \
    -fcp "$fcp" -fd "$fd" -fUCI \
    -scp "$scp" -sd "$work" -sUCI \
    -variant fischerandom -lpf "$work/book.fen" -lpi -2 \
    -mg "$games" -tc 5 -inc 0 -depth "$depth" -xponder -autoflag \
    -adjudicateDrawMoves 120 -sgf "$work/$name/games.pgn" \
    -xexit -xpopup -size medium \
    -debug -nameOfDebugFile "$work/$name/xboard.debug" \
    >"$work/$name/xboard.out" 2>&1 &
  xboard_pid=$!
  groups+=("$xboard_pid")
}

# Waits for the XBoard of a run to end (bounded by its `timeout`).
wait_xboard() {
  local name=$1 status=0
  wait "$xboard_pid" || status=$?
  if [ "$status" -eq 0 ]; then
    ok "$name: XBoard ended its match"
  else
    bad "$name: XBoard exited with status $status: $(tail -n3 "$work/$name/xboard.out")"
  fi
}

# Checks a run's PGN with python-chess: GAMES games, all Chess960 starts
# other than the standard one, every move legal, every game finished.
check_games() {
  local name=$1 games=$2 report
  if ! report=$(python3 tests/python/check_pgn.py "$work/$name/games.pgn" 2>&1); then
    bad "$name: python-chess could not read the PGN: $report"
    return
  fi
  echo "       $name: $report"
  python3 - "$games" "$report" <<'EOF' && ok "$name: $games games, Chess960 starts, every move legal, every game finished" || bad "$name: PGN check"
import json, sys
want, r = int(sys.argv[1]), json.loads(sys.argv[2])
errors = []
if r["games"] != want:
    errors.append(f"{r['games']} games, not {want}")
if r["problems"]:
    errors.append(f"problems: {r['problems']}")
if r["unfinished"]:
    errors.append(f"{r['unfinished']} games unfinished")
if r["standard_starts"]:
    errors.append(f"{r['standard_starts']} games from the standard start")
for e in errors:
    print("       " + e)
sys.exit(1 if errors else 0)
EOF
}

# Whether a proxy log holds at least $2 bestmoves.
bestmoves_at_least() {
  local n
  n=$(cat "$1"/p-*.log 2>/dev/null | grep -c 'proxy>gui    bestmove')
  [ "${n:-0}" -ge "$2" ]
}

# Checks a proxy log: Chess960 selected by Polyglot, castles, no refusal.
check_proxy_log() {
  local name=$1 dir=$2 logs
  logs=$(ls "$dir"/p-*.log 2>/dev/null)
  if [ -z "$logs" ]; then
    bad "$name: no proxy log in $dir"
    return
  fi
  # `%p` is the brace-free pid placeholder: XBoard reads braces as quoting.
  if ls "$dir" | grep -q '^p-[0-9][0-9]*\.log$'; then
    ok "$name: the log's %p placeholder was filled in through XBoard and Polyglot"
  else
    bad "$name: log names $(ls "$dir" | tr '\n' ' ')"
  fi
  if grep -q 'gui>proxy    setoption name UCI_Chess960 value true' $logs; then
    ok "$name: Polyglot selected Chess960 by UCI_Chess960"
  else
    bad "$name: no UCI_Chess960 from Polyglot"
  fi
  if grep -q 'uci960: \(illegal\|.*refusing\|.*not sent\)' $logs; then
    bad "$name: the proxy reported: $(grep -m3 'uci960: ' $logs)"
  else
    ok "$name: no illegal move or refused position reported by the proxy"
  fi
}

# ----- 1. the proxy with arguments, against Fairy-Stockfish -----
run=proxy-args
mkdir -p "$work/$run/engine"
start_xboard "$run" 2 \
  "$UCI960_BIN proxy --log $work/$run/engine/p-%p.log -- /usr/games/stockfish" \
  "$work/$run/engine" /usr/games/fairy-stockfish
if wait_for 120 bestmoves_at_least "$work/$run/engine" 12; then
  shot=$work/$run/xboard.png
  if timeout 30 import -window root "$shot" 2>"$work/$run/import.err"; then
    # A board is many colours and a large spread; an empty screen is one.
    colours=$(identify -format '%k' "$shot" 2>/dev/null || echo 0)
    if [ "${colours:-0}" -gt 16 ]; then
      ok "$run: screenshot mid-game ($(identify -format '%wx%h' "$shot"), $colours colours)"
      [ -n "${UCI960_GUI_SCREENSHOT:-}" ] && convert "$shot" -trim +repage -strip PNG8:"$UCI960_GUI_SCREENSHOT"
    else
      bad "$run: the screenshot is blank ($colours colours)"
    fi
  else
    bad "$run: import failed: $(cat "$work/$run/import.err")"
  fi
else
  bad "$run: no 12 moves of the proxy's engine within 120 s"
fi
wait_xboard "$run"
check_games "$run" 2
check_proxy_log "$run" "$work/$run/engine"

# ----- 2. started with no arguments, from a config beside it -----
run=proxy-config
dir=$work/$run/engine
mkdir -p "$dir"
cp "$UCI960_BIN" "$dir/sf960"
cat >"$dir/sf960.toml" <<EOF
[engine]
program = "/usr/games/stockfish"

[engine.options]
Threads = 1

[proxy]
log = "p-%p.log"
EOF
start_xboard "$run" 2 "$dir/sf960" "$dir" /usr/games/fairy-stockfish
wait_xboard "$run"
check_games "$run" 2
check_proxy_log "$run" "$dir"
if grep -q 'proxy>engine setoption name Threads value 1' "$dir"/p-*.log 2>/dev/null; then
  ok "$run: sf960 read sf960.toml (its engine options reached Stockfish)"
else
  bad "$run: no sign that sf960.toml was read"
fi

# ----- 3. the built-in engine as XBoard's opponent -----
run=builtin-opponent
mkdir -p "$work/$run/engine"
start_xboard "$run" 2 \
  "$UCI960_BIN proxy --log $work/$run/engine/p-%p.log -- /usr/games/stockfish" \
  "$work/$run/engine" "$UCI960_BIN engine" 5
wait_xboard "$run"
check_games "$run" 2
check_proxy_log "$run" "$work/$run/engine"
# The built-in engine's `id name` is "uci960 VERSION" (the proxy's ends in
# " (uci960)").
if grep -Eq '^\[(White|Black) "uci960 [0-9]' "$work/$run/games.pgn" 2>/dev/null; then
  ok "$run: the PGN names uci960's built-in engine as a player"
else
  bad "$run: no uci960 player in the PGN"
fi

# ----- nothing left running -----
# Zombies (XBoard's finished `aplay` sound players) hold no resources and
# go with their parent: only live processes count.
left=$(for g in "${groups[@]:1}"; do pgrep -g "$g"; done |
  while read -r p; do
    s=$(ps -o stat= -p "$p" | tr -d ' ')
    # Gone since pgrep looked, or a zombie: not running.
    [ -z "$s" ] || [ "${s:0:1}" = Z ] || echo "$p"
  done)
if [ -z "$left" ]; then
  ok "no XBoard, Polyglot, proxy or engine left running"
else
  bad "left running: $(ps -o pid=,args= -p "$(echo $left | tr ' ' ,)")"
fi
finish
