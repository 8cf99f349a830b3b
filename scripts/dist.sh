#!/usr/bin/env bash
# Release archives: dist/uci960-<version>-x86_64-unknown-linux-gnu.tar.gz and
# dist/uci960-<version>-x86_64-pc-windows-gnu.zip, each holding the binary,
# README.md, LICENSE and configs/, each with a .sha256 beside it
# (`sha256sum -c` reads it). The Windows binary is cross-built as in
# scripts/test-windows.sh. Nothing in dist/ is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/windows/env.sh

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
mkdir -p dist
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# package TRIPLE BINARY FORMAT: stage the files and write the archive.
package() {
  local triple=$1 binary=$2 format=$3
  local name="uci960-$version-$triple"
  mkdir -p "$stage/$name"
  cp "$binary" README.md LICENSE "$stage/$name/"
  cp -r configs "$stage/$name/"
  local archive
  case $format in
    tar.gz)
      archive="dist/$name.tar.gz"
      tar -C "$stage" -czf "$archive" "$name" ;;
    zip)
      archive="dist/$name.zip"
      (cd "$stage" && python3 -m zipfile -c "$OLDPWD/$archive" "$name") ;;
  esac
  (cd dist && sha256sum "$(basename "$archive")" > "$(basename "$archive").sha256")
  echo "dist: $archive"
}

cargo build --release --locked
package x86_64-unknown-linux-gnu target/release/uci960 tar.gz

ensure_windows_toolchain
"${cross_cargo[@]}" build -Zbuild-std=std,panic_abort --release --target "$WINDOWS_TARGET" --bin uci960
package "$WINDOWS_TARGET" "$CROSS_TARGET_DIR/$WINDOWS_TARGET/release/uci960.exe" zip
