"""Fake engine: drops the rest of the `moves` list at a castle, as an
engine does that cannot read king-takes-rook castles in the list."""

import chess

from wrapper import Relay


class DropsMoves(Relay):
    def to_engine(self, line):
        tokens = line.split()
        if not tokens or tokens[0] != "position" or "moves" not in tokens:
            return line
        fen_end = tokens.index("moves")
        if tokens[1] == "fen":
            board = chess.Board(" ".join(tokens[2:fen_end]), chess960=True)
        else:
            board = chess.Board(chess960=True)
        kept = []
        for mv in tokens[fen_end + 1:]:
            move = chess.Move.from_uci(mv)
            if board.is_castling(move):
                break
            board.push(move)
            kept.append(mv)
        out = tokens[:fen_end]
        if kept:
            out += ["moves"] + kept
        return " ".join(out)


if __name__ == "__main__":
    DropsMoves().run()
