#!/usr/bin/env bash
# The README's test command and what CI runs: install what is missing, then
# format check, clippy with warnings as errors, and every test.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
export PATH="$PATH:/usr/games"

cargo fmt --check
cargo clippy --all-targets --locked -- -D warnings
# Build everything first so the test run measures tests, not compiles.
cargo test --locked --no-run
cargo test --locked -- --test-threads=2
