#!/usr/bin/env bash
# Installs what the tests need and a fresh machine lacks: the Debian engines
# (stockfish, fairy-stockfish, ethereal-chess, glaurung, toga2 without
# Chess960, polyglot as the proxy benchmark's anchor) and python-chess.
# Safe to run again: it installs only what is missing.
set -euo pipefail

engines=(stockfish fairy-stockfish ethereal-chess glaurung toga2 polyglot)
missing=()
for pkg in "${engines[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  if "${sudo_cmd[@]}" apt-get update -qq && \
     DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null; then
    :
  else
    echo "install-deps: could not install ${missing[*]}" >&2
    [ "${CI:-}" = "true" ] && exit 1
  fi
fi

if ! python3 -c "import chess, chess.engine" >/dev/null 2>&1; then
  echo "install-deps: installing python-chess"
  python3 -m pip install --quiet chess || {
    echo "install-deps: could not install python-chess" >&2
    [ "${CI:-}" = "true" ] && exit 1
  }
fi
# The Kubernetes API's schemas, to check the Indexed Job in
# docs/DISTRIBUTED.md (tests/it/distributed.rs).
if ! python3 -c "import kubernetes_validate, yaml" >/dev/null 2>&1; then
  echo "install-deps: installing kubernetes-validate"
  python3 -m pip install --quiet kubernetes-validate || {
    echo "install-deps: could not install kubernetes-validate" >&2
    [ "${CI:-}" = "true" ] && exit 1
  }
fi
exit 0
