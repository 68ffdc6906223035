"""The opening explorer beside the board (``x``, on a game and in a replay): the moves
played in the position shown, with how many games and how they scored for the side to
move, the strongest games that reached it, a filter by player and years (``/``); a move
chosen (Enter, a click) is played on the board.

The answers come from the explorer's index (:mod:`shashki.store.explorer`): the one
``shashki explore build`` writes, and My games, brought up to date the first time the
panel opens.  The look-ups run in a worker thread; a damaged index is one line in the
panel.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from ..i18n import N_, _, ngettext
from ..rules import Game
from ..rules.errors import ShashkiError
from ..rules.move import Move
from ..rules.variant import Variant
from ..session.served import hide_paths
from ..store.explorer import (
    Answer,
    BadIndex,
    Explorer,
    Filter,
    TopGame,
    default_index,
    describe_filter,
    parse_filter,
    refresh_mine,
)
from .dialogs import TextPrompt
from .plain import Plain, literal
from .widgets import PagedOptionList

#: The strongest games shown under the moves.
GAMES_SHOWN = 2


def move_row(text: str, games: int, score: float | None) -> str:
    """One move of the list: its text, the number of games, the score of the side to move."""
    shown = "–" if score is None else f"{100 * score:.0f}%"
    return f"{text:<9}{games:>6} {shown:>4}"


def game_words(game: TopGame, variant: Variant) -> str:
    """One of the strongest games, short: "Ivanov – Petrov 1-0 1990"."""
    result = {1: "1-0", 0: "½-½", -1: "0-1"}.get(game.result if game.result is not None else 9, "*")
    year = f" {game.year}" if game.year else ""
    return " – ".join(game.players(variant)) + f" {result}{year}"


class FilterPrompt(TextPrompt):
    """The filter's line: Enter on an empty line clears it, Escape leaves it as it was."""

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip())


class ExplorerPanel(Vertical):
    """The explorer's answer for the position shown, when it is on."""

    DEFAULT_CSS = """
    ExplorerPanel { height: auto; display: none; }
    ExplorerPanel.-on { display: block; }
    ExplorerPanel #explorer-moves { height: auto; max-height: 7; border: none; padding: 0; }
    ExplorerPanel #explorer-head { color: $text-muted; }
    ExplorerPanel #explorer-games { color: $text-muted; height: auto; max-height: 2; }
    """

    BINDINGS = [
        Binding("slash", "filter", N_("Filter"), key_display="/"),
        Binding("escape", "leave", N_("Board"), show=False),
    ]

    class Chosen(Message):
        """A move of the list chosen: the screen plays it."""

        def __init__(self, move: Move) -> None:
            super().__init__()
            self.move = move

    class Left(Message):
        """Escape in the list: the screen gives the board the keys again."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on = False
        self.where = Filter()
        self._game: Game | None = None
        self._key: object = None
        self._explorer: Explorer | None = None
        #: Held while the index is used (a search's thread; several may run at once, a
        #: cancelled one goes on) and while it is closed: a connection closed under a
        #: query in another thread takes the process down (sqlite3 in CPython 3.11).
        self._lock = threading.Lock()
        #: The panel is gone: the index is closed by whoever holds it last.
        self._closing = False
        self._refreshed = False
        self._moves: list[Move] = []
        #: What the head line says, said again when the language changes.
        self._said: Callable[[], str] = lambda: ""
        self._answer: Answer | None = None

    def compose(self) -> ComposeResult:
        yield Plain("", id="explorer-head")
        yield PagedOptionList(id="explorer-moves")
        yield Plain("", id="explorer-games")

    @property
    def moves_list(self) -> OptionList:
        return self.query_one("#explorer-moves", OptionList)

    def say(self, said: Callable[[], str]) -> None:
        self._said = said
        self.query_one("#explorer-head", Plain).update(said())

    def retranslate(self) -> None:
        if self._answer is not None and self._game is not None:
            self._show(self._game, self._answer)
        else:
            self.query_one("#explorer-head", Plain).update(self._said())

    def toggle(self, game: Game) -> bool:
        """Turn the explorer on (for ``game``'s position) or off; whether it is on now."""
        self.on = not self.on
        self.set_class(self.on, "-on")
        self._key = None
        if self.on:
            self.follow(game)
            self.moves_list.focus()
        else:
            self.workers.cancel_group(self, "explorer")
        return self.on

    def follow(self, game: Game) -> None:
        """Show what was played in ``game``'s position (a no-op when off or the same)."""
        if not self.on:
            return
        key = (game.variant.id, game.position, self.where)
        if key == self._key:
            return
        self._key = key
        self._game = game.copy()
        self.say(lambda: _("Explorer: looking…"))
        shown = self._game
        self.run_worker(lambda: self._look(shown), thread=True, group="explorer", exclusive=True)

    def _look(self, game: Game) -> None:
        worker = get_current_worker()
        answer: Answer | None = None
        reason = ""
        with self._lock:
            if self._closing:
                return
            try:
                answer = self._ask(game)
            except (BadIndex, OSError, sqlite3.Error) as exc:
                reason = hide_paths(str(exc))  # (a served app's visitor: not the owner's folders)
        if self._closing:  # (gone meanwhile: closed here if the panel could not)
            with self._lock:
                self._close_index()
            return
        if answer is None:
            self.app.call_from_thread(self._failed, worker, reason)
        elif not worker.is_cancelled:
            self.app.call_from_thread(self._shown, worker, game, answer)

    def _ask(self, game: Game) -> Answer:
        """What the index says of ``game``'s position (with the lock held)."""
        if self._explorer is None:
            self._explorer = Explorer(default_index(), create=True)
        if not self._refreshed:
            refresh_mine(self._explorer)
            self._refreshed = True
        return self._explorer.answer(game.variant.id, game.fen(), self.where)

    def _close_index(self) -> None:
        """Close the index (with the lock held; once)."""
        explorer, self._explorer = self._explorer, None
        if explorer is not None:
            explorer.close()

    def _failed(self, worker: object, reason: str) -> None:
        if getattr(worker, "is_cancelled", True):
            return
        self._answer = None
        self.moves_list.clear_options()
        self.query_one("#explorer-games", Plain).update("")
        self.say(lambda: reason)

    def _shown(self, worker: object, game: Game, answer: Answer) -> None:
        if not self.on or getattr(worker, "is_cancelled", True):
            return
        self._answer = answer
        self._show(game, answer)

    def _show(self, game: Game, answer: Answer) -> None:
        side = int(game.turn)
        rows: list[Option] = []
        self._moves = []
        for stat in answer.moves:
            try:
                move = game.parse_move(stat.move)
            except ShashkiError:
                continue  # (a key that met another position: never shown)
            self._moves.append(move)
            rows.append(
                Option(literal(move_row(game.move_text(move), stat.games, stat.score(side))))
            )
        moves = self.moves_list
        highlighted = moves.highlighted
        moves.clear_options()
        moves.add_options(rows)
        if rows:
            moves.highlighted = min(highlighted or 0, len(rows) - 1)
        total = answer.total
        filtered = describe_filter(self.where)

        def head() -> str:
            if not total:
                text = _("Explorer: no game reached this position")
            else:
                text = ngettext("Explorer: {n} game", "Explorer: {n} games", total).format(
                    n=f"{total:,}"
                )
            if filtered:
                text += " · " + filtered
            return text

        self.say(head)
        self.query_one("#explorer-games", Plain).update(
            "\n".join(game_words(g, game.variant) for g in answer.games[:GAMES_SHOWN])
        )

    @on(OptionList.OptionSelected, "#explorer-moves")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self._moves):
            self.post_message(self.Chosen(self._moves[event.option_index]))

    def action_filter(self) -> None:
        """Only the games of a player and years (/): one line, "Ivanov 1990-2000"."""

        def chosen(text: str | None) -> None:
            if text is None:
                return
            try:
                self.where = parse_filter(text)
            except ValueError as exc:
                self.notify(str(exc), severity="warning", timeout=4, markup=False)
                return
            if self._game is not None:
                self.follow(self._game)

        self.app.push_screen(
            FilterPrompt(
                N_(
                    "Only the games of a player and of some years (e.g. Ivanov 1990-2000); "
                    "empty: all of them:"
                ),
                describe_filter(self.where),
            ),
            chosen,
        )

    def action_leave(self) -> None:
        self.post_message(self.Left())

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "explorer")
        self._closing = True
        # never waits for a search's thread: one under way closes the index as it leaves
        if self._lock.acquire(blocking=False):
            try:
                self._close_index()
            finally:
                self._lock.release()


__all__ = ["ExplorerPanel", "game_words", "move_row"]
