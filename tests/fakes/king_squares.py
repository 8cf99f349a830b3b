"""Fake engine: answers castles in standard-UCI notation (the king's
destination square, `e1g1`) instead of Chess960's king-takes-rook."""

import chess

from wrapper import Relay


class KingSquares(Relay):
    def to_engine(self, line):
        if line.startswith("position"):
            self.track_position(line)
        return line

    def to_gui(self, line):
        tokens = line.split()
        if len(tokens) >= 2 and tokens[0] == "bestmove":
            try:
                move = chess.Move.from_uci(tokens[1])
            except ValueError:
                return line
            if self.board.is_castling(move):
                rank = chess.square_rank(move.from_square)
                king_side = chess.square_file(move.to_square) > chess.square_file(move.from_square)
                to = chess.square(6 if king_side else 2, rank)
                tokens[1] = chess.square_name(move.from_square) + chess.square_name(to)
                return " ".join(tokens[:2])
        return line


if __name__ == "__main__":
    KingSquares().run()
