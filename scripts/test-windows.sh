#!/usr/bin/env bash
# The Windows half of the test run (called by .ci/run after scripts/test.sh):
# installs the cross toolchain and wine if missing, cross-builds uci960.exe
# and the Rust mock engine for x86_64-pc-windows-gnu, runs the library's unit
# tests and the Windows test set (tests/it, module `windows`) under wine, and
# type-checks the crate for macOS (aarch64-apple-darwin; no Apple linker
# needed for a check). Takes about 10 minutes on a fresh 2-core machine
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
# wineserver -k afterwards: no wine process may outlive the run.
trap 'wineserver -k 2>/dev/null || true' EXIT
echo "windows: unit tests under wine"
timeout 900 "${cross_cargo[@]}" test -Zbuild-std=std,panic_abort --target "$WINDOWS_TARGET" --lib \
  -- --test-threads=2 || status=1
echo "windows: integration tests under wine (tests/it module windows)"
timeout 900 "${cross_cargo[@]}" test -Zbuild-std=std,panic_abort --target "$WINDOWS_TARGET" --test it \
  -- --test-threads=2 windows:: || status=1

echo "macos: type-check for $MACOS_TARGET"
"${cross_cargo[@]}" check -Zbuild-std=std,panic_abort --target "$MACOS_TARGET" --all-targets || status=1

exit $status
