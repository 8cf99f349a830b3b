#!/usr/bin/env python3
"""A misbehaving UCI engine for the match runner's fault tests.

Usage: match_fake_engine.py MODE [N]   (N counts the engine's moves in each game)
  normal    plays the first legal move (sorted by UCI text)
  illegal   sends the illegal move a1a1 on its N-th move
  crash     exits with status 3 on its N-th move
  stall     never answers its N-th `go`
  slow      sleeps 1 s before answering its N-th `go` (time forfeit under --st)
  kingtwo   castles whenever it can, written as the king's destination (e1g1)
  nochess960  does not declare UCI_Chess960
With FAKE_PID_LOG set, each process appends "pid" and a line per
`ucinewgame` ("pid new") to that file (engine reuse and restart tests).
Needs python-chess (pip install chess).
"""
import os
import sys
import time

import chess

mode = sys.argv[1] if len(sys.argv) > 1 else "normal"
when = int(sys.argv[2]) if len(sys.argv) > 2 else 1
board = chess.Board(chess960=True)
moves_made = 0
pid_log = os.environ.get("FAKE_PID_LOG")


def log(text):
    if pid_log:
        with open(pid_log, "a", encoding="utf-8") as f:
            f.write(text + "\n")


log(str(os.getpid()))


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def king_two_squares(move):
    """Castling move in standard notation: the king's destination square."""
    rank = chess.square_rank(move.from_square)
    king_side = chess.square_file(move.to_square) > chess.square_file(move.from_square)
    target = chess.square(6 if king_side else 2, rank)
    return chess.square_name(move.from_square) + chess.square_name(target)


for raw in sys.stdin:
    tokens = raw.split()
    if not tokens:
        continue
    cmd = tokens[0]
    if cmd == "uci":
        say("id name fake-" + mode)
        if mode != "nochess960":
            say("option name UCI_Chess960 type check default false")
        say("uciok")
    elif cmd == "ucinewgame":
        moves_made = 0
        log(f"{os.getpid()} new")
    elif cmd == "isready":
        say("readyok")
    elif cmd == "position":
        if tokens[1] == "fen":
            end = tokens.index("moves") if "moves" in tokens else len(tokens)
            board = chess.Board(" ".join(tokens[2:end]), chess960=True)
            rest = tokens[end + 1:]
        else:
            board = chess.Board(chess960=True)
            rest = tokens[tokens.index("moves") + 1:] if "moves" in tokens else []
        for m in rest:
            board.push_uci(m)
    elif cmd == "go":
        moves_made += 1
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        due = moves_made == when
        if mode == "illegal" and due:
            say("bestmove a1a1")
        elif mode == "crash" and due:
            sys.exit(3)
        elif mode == "stall" and due:
            continue
        else:
            if mode == "slow" and due:
                time.sleep(1.0)
            castles = [m for m in legal if board.is_castling(m)]
            if mode == "kingtwo" and castles:
                say("info depth 1 score cp 0")
                say("bestmove " + king_two_squares(castles[0]))
            else:
                say("info depth 1 score cp 0 pv " + legal[0].uci())
                say("bestmove " + legal[0].uci())
    elif cmd == "quit":
        break
