"""Plays Chess960 games with python-chess (chess.engine) against an engine
behind `uci960 proxy`, both sides by the same engine. Every move the engine
returns is checked by python-chess (an illegal one raises). Prints one JSON
line per game and a summary line.

usage: play960.py GAMES LIMIT SEED PROXY [ARGS...]   (LIMIT: nodes:N or depth:N)
"""
import json
import random
import sys

import chess
import chess.engine

MAX_PLIES = 240


def main():
    games, seed = int(sys.argv[1]), int(sys.argv[3])
    kind, _, value = sys.argv[2].partition(":")
    limit = chess.engine.Limit(**{kind: int(value)})
    command = sys.argv[4:]
    rng = random.Random(seed)
    summary = {"games": 0, "plies": 0, "kingside": 0, "queenside": 0, "results": {}}
    with chess.engine.SimpleEngine.popen_uci(command, timeout=30) as engine:
        for _ in range(games):
            sp = rng.randrange(960)
            board = chess.Board.from_chess960_pos(sp)
            engine.configure({"Hash": 16}) if "Hash" in engine.options else None
            while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
                result = engine.play(board, limit, game=sp)
                move = result.move
                if move is None or move not in board.legal_moves:
                    raise SystemExit(f"illegal move {move} in {board.fen()}")
                if board.is_castling(move):
                    if board.is_kingside_castling(move):
                        summary["kingside"] += 1
                    else:
                        summary["queenside"] += 1
                board.push(move)
            outcome = board.outcome(claim_draw=True)
            res = outcome.result() if outcome else "1/2-1/2 (adjudicated)"
            summary["games"] += 1
            summary["plies"] += board.ply()
            summary["results"][res] = summary["results"].get(res, 0) + 1
            print(json.dumps({"sp": sp, "plies": board.ply(), "result": res}), flush=True)
    print("SUMMARY " + json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
