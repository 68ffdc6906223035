"""Notation: moves as text (FEN lives with the positions in :mod:`shashki.rules.fen`)."""

from ..rules.fen import format_fen, parse_fen, square_text
from .moves import move_text, parse_move, split_move_text

__all__ = ["format_fen", "move_text", "parse_fen", "parse_move", "split_move_text", "square_text"]
