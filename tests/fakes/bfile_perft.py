"""Fake engine: its `go perft N` misses every castle of a king standing on
the b-file (anywhere in the tree). Perft is answered here, in Stockfish's
divide form; everything else goes to the real engine."""

import chess

from wrapper import Relay


def moves(board):
    return [
        m for m in board.legal_moves
        if not (board.is_castling(m) and chess.square_file(m.from_square) == 1)
    ]


def count(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return len(moves(board))
    total = 0
    for m in moves(board):
        board.push(m)
        total += count(board, depth - 1)
        board.pop()
    return total


class BFilePerft(Relay):
    def to_engine(self, line):
        if line.startswith("position"):
            self.track_position(line)
            return line
        tokens = line.split()
        if len(tokens) == 3 and tokens[:2] == ["go", "perft"]:
            depth = int(tokens[2])
            board = self.board.copy(stack=False)
            total = 0
            lines = []
            for m in moves(board):
                board.push(m)
                n = count(board, depth - 1)
                board.pop()
                total += n
                lines.append(f"{m.uci()}: {n}")
            self.say("\n".join(lines + ["", f"Nodes searched: {total}", ""]))
            return None
        return line


if __name__ == "__main__":
    BFilePerft().run()
