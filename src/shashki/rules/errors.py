"""The errors the rules and notation layers raise: all of them are ``ValueError``s."""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import _


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
    """A move text matches several legal moves (``moves``, when the reader knows them)."""

    def __init__(self, message: str, moves: Sequence[object] = ()) -> None:
        super().__init__(message)
        self.moves: tuple[object, ...] = tuple(moves)


class PerftDepthError(ShashkiError):
    """A perft depth that cannot be counted (below 0, or a tree too big to finish)."""


class BadPdnError(ShashkiError):
    """A game record (PDN) cannot be read, or one of its moves cannot be replayed.

    The PDN reader does not raise it: it collects these errors on the game it returns,
    each with the place in the file (``line`` and ``column``, both 1-based, 0 when
    unknown), the text at fault (``token``) and the position it was read in (``fen``).
    """

    def __init__(
        self, message: str, *, line: int = 0, column: int = 0, token: str = "", fen: str = ""
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.token = token
        self.fen = fen

    def __str__(self) -> str:
        if self.line:
            return _("line {line}, column {column}: {message}").format(
                line=self.line, column=self.column, message=self.message
            )
        return self.message

    def __reduce__(self) -> tuple[object, ...]:  # pickling keeps the keyword fields
        return (_rebuild_bad_pdn, (self.message, self.line, self.column, self.token, self.fen))


def _rebuild_bad_pdn(message: str, line: int, column: int, token: str, fen: str) -> BadPdnError:
    return BadPdnError(message, line=line, column=column, token=token, fen=fen)
