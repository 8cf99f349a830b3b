"""Shared plumbing for the buggy fake engines: run a real engine (stockfish
by default, or $FAKE_ENGINE) as a child and relay UCI both ways, letting a
fake rewrite the lines it cares about. Each fake lives in its own file and
adds exactly one castling bug; they exist only to prove that
`uci960 castling-test` catches that bug."""

import os
import subprocess
import sys
import threading

import chess


class Relay:
    def __init__(self):
        engine = os.environ.get("FAKE_ENGINE", "/usr/games/stockfish")
        self.child = subprocess.Popen(
            [engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.board = chess.Board(chess960=True)
        self.lock = threading.Lock()

    # Hooks for the fakes.
    def to_engine(self, line):
        """The line to send to the engine instead of `line` (None: nothing)."""
        return line

    def to_gui(self, line):
        """The line to print instead of the engine's `line`."""
        return line

    def track_position(self, line):
        """Keeps `self.board` at the position a `position` line sets up."""
        tokens = line.split()
        if len(tokens) < 2:
            return
        if tokens[1] == "startpos":
            board = chess.Board(chess960=True)
            rest = tokens[2:]
        elif tokens[1] == "fen":
            fen_end = tokens.index("moves") if "moves" in tokens else len(tokens)
            board = chess.Board(" ".join(tokens[2:fen_end]), chess960=True)
            rest = tokens[fen_end:]
        else:
            return
        if rest and rest[0] == "moves":
            for mv in rest[1:]:
                board.push_uci(mv)
        self.board = board

    def say(self, line):
        with self.lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def pump(self):
        for line in self.child.stdout:
            out = self.to_gui(line.rstrip("\n"))
            if out is not None:
                self.say(out)

    def run(self):
        threading.Thread(target=self.pump, daemon=True).start()
        for line in sys.stdin:
            line = line.strip()
            out = self.to_engine(line)
            if out is not None:
                self.child.stdin.write(out + "\n")
                self.child.stdin.flush()
            if line == "quit":
                break
        try:
            self.child.stdin.close()
        except OSError:
            pass
        self.child.wait(timeout=10)
