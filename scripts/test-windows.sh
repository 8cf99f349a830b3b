#!/usr/bin/env bash
# The Windows half of the test run (called by .ci/run after scripts/test.sh):
# installs the cross toolchain and wine if missing, cross-builds uci960.exe
# and the Rust mock engine for x86_64-pc-windows-gnu, runs the library's unit
# tests and the Windows test set (tests/it, module `windows`) under wine, and
# type-checks the library and binaries for macOS (aarch64-apple-darwin;
# no Apple linker needed for a check). Takes about 10 minutes on a fresh 2-core machine
# (building std twice is most of it), about 2 once built.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/windows/env.sh

ensure_windows_toolchain
ensure_wine_prefix

echo "windows: cross-building tests for $WINDOWS_TARGET"
"${cross_cargo[@]}" build -Zbuild-std=std,panic_abort --target "$WINDOWS_TARGET" --bins --examples
"${cross_cargo[@]}" test -Zbuild-std=std,panic_abort --target "$WINDOWS_TARGET" --no-run --lib --test it

status=0
# The Windows match test leaves its PGN here for python-chess (below).
export UCI960_WINDOWS_PGN=$PWD/target/windows-match.pgn
mkdir -p target && rm -f "$UCI960_WINDOWS_PGN"
# wineserver -k afterwards: no wine process may outlive the run.
trap 'wineserver -k 2>/dev/null || true' EXIT
echo "windows: unit tests under wine"
timeout 900 "${cross_cargo[@]}" test -Zbuild-std=std,panic_abort --target "$WINDOWS_TARGET" --lib \
  -- --test-threads=2 || status=1
echo "windows: integration tests under wine (tests/it module windows)"
timeout 900 "${cross_cargo[@]}" test -Zbuild-std=std,panic_abort --target "$WINDOWS_TARGET" --test it \
  -- --test-threads=2 windows:: || status=1

echo "windows: positions/show/analyze print the same bytes as the Linux build"
cargo build --quiet --bin uci960
win_bin="$CROSS_TARGET_DIR/$WINDOWS_TARGET/debug/uci960.exe"
# One wineserver for all the comparisons below: started and stopped around
# each command, a new wine process can meet a server that is shutting down.
wineserver -p 2>/dev/null || true
cmp_dir=$(mktemp -d)
# Runs the Linux and the Windows build with the same arguments and compares
# their stdout byte for byte. A Windows run that printed nothing and exited
# otherwise than the Linux one never ran our code (wine failed to start it):
# it is tried once more, and said so. Any other difference fails, with the
# exit codes, the first differing lines and wine's stderr.
same_output() {
  local lrc=0 wrc=0 try
  target/debug/uci960 "$@" >"$cmp_dir/linux" 2>/dev/null || lrc=$?
  for try in 1 2; do
    wrc=0
    wine "$win_bin" "$@" >"$cmp_dir/windows" 2>"$cmp_dir/wine-stderr" || wrc=$?
    if [ "$try" = 1 ] && [ ! -s "$cmp_dir/windows" ] && [ -s "$cmp_dir/linux" ] && [ "$wrc" != "$lrc" ]; then
      echo "windows: 'uci960 $*' printed nothing under wine (exit $wrc): wine start-up, trying once more"
      head -c 2000 "$cmp_dir/wine-stderr"
      continue
    fi
    break
  done
  if ! cmp -s "$cmp_dir/linux" "$cmp_dir/windows"; then
    echo "windows: 'uci960 $*' differs from the Linux build (exit $lrc on Linux, $wrc under wine)"
    diff "$cmp_dir/linux" "$cmp_dir/windows" | head -20 || true
    head -c 2000 "$cmp_dir/wine-stderr"
    status=1
  fi
}
for fmt in fen shredder epd sp pgn board json csv; do
  same_output positions --method die --seed 1 --count 50 --format "$fmt"
done
for m in bag-redraw bag-swap random dfrc "sp:0-959"; do
  same_output positions --method "$m" --seed 7 --count 20
done
for what in 518 0 959 RNBQKBNR bbqnnrkr "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"; do
  same_output show "$what"
done
same_output analyze --method die
same_output analyze --method bag-swap --samples 20000 --seed 3 --format json
rm -rf "$cmp_dir"

echo "windows: python-chess replays the PGN of the Windows match"
if [ -s "$UCI960_WINDOWS_PGN" ]; then
  python3 - "$UCI960_WINDOWS_PGN" <<'PY' || status=1
import sys, chess.pgn
games = 0
with open(sys.argv[1]) as f:
    while (game := chess.pgn.read_game(f)) is not None:
        assert not game.errors, game.errors
        board = game.board()
        for move in game.mainline_moves():
            assert board.is_legal(move), (games, move)
            board.push(move)
        games += 1
assert games == 4, games
print(f"windows: python-chess replayed {games} games")
PY
else
  echo "windows: no PGN from the Windows match"; status=1
fi

# The library and the binaries: the test and bench targets need
# criterion's dev-dependency alloca, whose build script compiles C for the
# target and so needs Apple's SDK, which is not here. ring's C (rustls) is
# compiled freestanding by clang with scripts/macos/TargetConditionals.h
# standing in for the SDK's one header it reads (see scripts/windows/env.sh).
echo "macos: type-check for $MACOS_TARGET"
"${cross_cargo[@]}" check -Zbuild-std=std,panic_abort --target "$MACOS_TARGET" --lib --bins || status=1

exit $status
