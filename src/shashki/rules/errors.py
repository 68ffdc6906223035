"""The errors the rules and notation layers raise: all of them are ``ValueError``s."""

from __future__ import annotations


class ShashkiError(ValueError):
    """Base of every error about user input (notation, moves, positions, files)."""


class UnknownVariantError(ShashkiError):
    """No variant has this id, alias or PDN GameType."""


class VariantFileError(ShashkiError):
    """A variant definition file is malformed."""


class BadFenError(ShashkiError):
    """A position text (FEN) cannot be read."""


class NotationError(ShashkiError):
    """A move text cannot be read at all."""


class IllegalMoveError(ShashkiError):
    """A move is not legal in the position."""


class AmbiguousMoveError(ShashkiError):
    """A move text matches several legal moves."""
