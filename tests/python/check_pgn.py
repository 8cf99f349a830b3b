#!/usr/bin/env python3
"""Reads a match PGN with python-chess in Chess960 mode and prints a JSON
report: games, per-engine W/D/L, terminations, castles played, games
unfinished (result `*`) or from the standard start, and any problem found
(illegal replay, pairs not sharing the start position with colours
reversed, PlyCount mismatch). Termination and PlyCount are checked when
present (uci960 match writes them; XBoard does not)."""
import json
import sys

import chess
import chess.pgn

problems = []
games = []
with open(sys.argv[1], encoding="utf-8") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        games.append(game)

STANDARD = chess.STARTING_FEN
score = {}
terminations = {}
castles = 0
unfinished = 0
standard_starts = 0
by_round = {}
for g in games:
    h = g.headers
    rnd = int(h["Round"])
    board = g.board()
    if not board.chess960:
        problems.append(f"game {rnd}: board not in Chess960 mode")
    if g.errors:
        problems.append(f"game {rnd}: {g.errors}")
    if board.fen() == STANDARD:
        standard_starts += 1
    plies = 0
    for move in g.mainline_moves():
        if move not in board.legal_moves:
            problems.append(f"game {rnd}: illegal move {move}")
            break
        castles += board.is_castling(move)
        board.push(move)
        plies += 1
    if "PlyCount" in h and str(plies) != h["PlyCount"]:
        problems.append(f"game {rnd}: PlyCount {h.get('PlyCount')} but {plies} moves")
    termination = h.get("Termination", "")
    if termination == "checkmate" and not board.is_checkmate():
        problems.append(f"game {rnd}: Termination checkmate but no mate on the board")
    by_round[rnd] = h
    terminations[termination] = terminations.get(termination, 0) + 1
    res = h["Result"]
    unfinished += res == "*"
    for side, name in (("1-0", h["White"]), ("0-1", h["Black"])):
        s = score.setdefault(name, {"wins": 0, "draws": 0, "losses": 0})
        if res == "1/2-1/2":
            s["draws"] += 1
        elif res == side:
            s["wins"] += 1
        else:
            s["losses"] += 1

for rnd, h in by_round.items():
    if rnd % 2 == 1 and rnd + 1 in by_round:
        o = by_round[rnd + 1]
        if o.get("FEN") != h.get("FEN"):
            problems.append(f"pair {rnd}/{rnd + 1}: different start positions")
        if (o["White"], o["Black"]) != (h["Black"], h["White"]):
            problems.append(f"pair {rnd}/{rnd + 1}: colours not reversed")

print(json.dumps({
    "games": len(games),
    "rounds": sorted(by_round),
    "score": score,
    "terminations": terminations,
    "positions": len({h.get("FEN") for h in by_round.values()}),
    "castles": castles,
    "unfinished": unfinished,
    "standard_starts": standard_starts,
    "problems": problems,
}))
