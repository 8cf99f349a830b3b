"""Fake engine: keeps castling rights it has lost. A `position ... moves`
line is replayed here and sent on as a bare FEN in which every right of the
start position comes back wherever its king and rook stand on their home
squares again (after moving away and back, or after a recapture)."""

import chess

from wrapper import Relay


class KeepsRights(Relay):
    def to_engine(self, line):
        if not line.startswith("position") or " moves " not in line:
            return line
        self.track_position(line)
        tokens = line.split()
        fen_end = tokens.index("moves")
        if tokens[1] == "fen":
            start = chess.Board(" ".join(tokens[2:fen_end]), chess960=True)
        else:
            start = chess.Board(chess960=True)
        board = self.board.copy(stack=False)
        board.castling_rights |= start.castling_rights
        board.castling_rights = board.clean_castling_rights()
        return "position fen " + board.fen(shredder=True)


if __name__ == "__main__":
    KeepsRights().run()
