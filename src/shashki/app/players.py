"""The kinds of player a new game can seat on each side."""

from __future__ import annotations

from .controller import Human, Player

#: Computer players register here (label, key, factory(name) -> Player): one per level.
COMPUTER_KINDS: list[tuple[str, str, object]] = []


def _register_computer() -> None:
    from .computer import computer_kinds

    COMPUTER_KINDS.extend(computer_kinds())


_register_computer()


def player_kinds() -> list[tuple[str, str]]:
    """(label, key) of every kind of player, a person first."""
    return [("Person", "human")] + [(label, key) for label, key, _ in COMPUTER_KINDS]


def make_player(kind: str, name: str) -> Player:
    for _label, key, factory in COMPUTER_KINDS:
        if key == kind:
            return factory(name)  # type: ignore[operator,no-any-return]
    return Human(name)
