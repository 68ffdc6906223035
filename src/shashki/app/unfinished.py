"""The list of unfinished games: resume one, start a new game, or delete one."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..i18n import N_, _, ngettext, noun
from .dialogs import ConfirmScreen
from .plain import visible
from .widgets import Button, Dialog, PagedOptionList, relabel_button

if TYPE_CHECKING:
    from ..store import Unfinished
    from .app import ShashkiApp


def when_text(stamp: float, now: float | None = None) -> str:
    """When a game was last played, as a person says it: "today 14:32",
    "yesterday 09:05", "2026-11-30 18:00"."""
    now = time.time() if now is None else now
    then = time.localtime(stamp)
    today = time.localtime(now)
    clock = time.strftime("%H:%M", then)
    if then[:3] == today[:3]:
        return _("today {time}").format(time=clock)
    yesterday = time.localtime(now - 86400)
    if then[:3] == yesterday[:3]:
        return _("yesterday {time}").format(time=clock)
    return time.strftime("%Y-%m-%d %H:%M", then)


def variant_name(game: Unfinished) -> str:
    """The game's variant, named in the language spoken now."""
    record = getattr(game, "record", None)
    variant = record.variant if record is not None else None
    return variant.local_name if variant is not None else game.variant_name


def players_text(game: Unfinished) -> str:
    """ "White v Black": the players, a side's own name in the language spoken now."""
    record = getattr(game, "record", None)
    variant = record.variant if record is not None else None
    white, black = noun(game.players[0]), noun(game.players[1])
    if variant is not None:
        sides = variant.side_names
        white = variant.local_side(0) if white == sides[0] else white
        black = variant.local_side(1) if black == sides[1] else black
    return _("{white} v {black}").format(white=white, black=black)


def _online(game: Unfinished) -> str:
    """How an online game goes on: hosted again, or joined again ("" for a game at this
    keyboard, or a room that cannot be read: it goes on here)."""
    from ..online.room import TAG, read_room

    record = getattr(game, "record", None)
    room = read_room(record.header(TAG)) if record is not None else None
    if room is None:
        return ""
    if room.hosting:
        return _("online: hosted again, your friend joins with {code}").format(code=room.code)
    return _("online: joins {address} again").format(address=room.address)


def describe(game: Unfinished, now: float | None = None) -> Text:
    """Two lines: the variant and players; the moves, when last played, and why it
    cannot be resumed, if it cannot."""
    moves = ngettext("{n} move", "{n} moves", game.moves).format(n=game.moves)
    text = Text()
    # names from the autosave's tags: a rich Text is never markup, control characters shown
    text.append(visible(variant_name(game)), style="bold")
    players = players_text(game)
    text.append(visible(f" — {players}") + "\n")
    details = _("{moves}, last played {when}").format(
        moves=moves, when=when_text(game.last_played, now)
    )
    text.append(details, style="dim")
    online = _online(game)
    if online:
        text.append(f" — {online}", style="dim")
    if game.status:
        text.append(visible(f" — {game.status}"), style="italic")
    return text


class UnfinishedScreen(Dialog[str | None]):
    """The unfinished games, the most recent first.  Dismissed with the key of the game
    to resume, or None for a new game.  A game open in another shashki is listed but
    cannot be chosen."""

    BINDINGS = [
        Binding("n,escape", "new_game", N_("New game")),
        Binding("d,delete", "delete", N_("Delete")),
    ]

    def __init__(self, games: list[Unfinished]) -> None:
        super().__init__()
        self.games = {g.key: g for g in games}

    @property
    def shashki(self) -> ShashkiApp:
        return self.app  # type: ignore[return-value]

    def _title(self) -> str:
        title = _("Unfinished games ({n})").format(n=len(self.games))
        hint = _("Enter resumes the game chosen, d deletes it, n starts a new game.")
        return f"[b]{title}[/b]\n{hint}"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._title(), id="title")
            yield PagedOptionList(*self._options(), id="games")
            with Horizontal():
                yield Button(_("Resume (Enter)"), id="resume", variant="primary")
                yield Button(_("New game (n)"), id="new")
                yield Button(_("Delete (d)"), id="delete")

    def retranslate(self) -> None:
        """The list in the language spoken now; the game highlighted stays."""
        self.query_one("#title", Static).update(self._title())
        games = self.query_one("#games", OptionList)
        now = time.time()
        for index in range(games.option_count):
            key = games.get_option_at_index(index).id
            if key in self.games:
                games.replace_option_prompt_at_index(index, describe(self.games[key], now))
        relabel_button(self, "#resume", _("Resume (Enter)"))
        relabel_button(self, "#new", _("New game (n)"))
        relabel_button(self, "#delete", _("Delete (d)"))

    def _options(self) -> list[Option]:
        now = time.time()
        return [
            Option(describe(g, now), id=g.key, disabled=not g.resumable)
            for g in self.games.values()
        ]

    def on_mount(self) -> None:
        games = self.query_one("#games", OptionList)
        games.focus()
        first = next((i for i, o in enumerate(games.options) if not o.disabled), None)
        if first is not None:
            games.highlighted = first

    def _chosen(self) -> Unfinished | None:
        games = self.query_one("#games", OptionList)
        option = games.highlighted_option
        if option is None or option.id is None:
            return None
        return self.games.get(option.id)

    @on(OptionList.OptionSelected, "#games")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        game = self.games.get(event.option.id or "")
        if game is not None and game.resumable:
            self.dismiss(game.key)

    @on(Button.Pressed, "#resume")
    def action_resume(self) -> None:
        game = self._chosen()
        if game is None:
            return
        if not game.resumable:
            self.notify(
                _("This game cannot be resumed: {why}.").format(why=game.status),
                severity="warning",
                markup=False,
            )
            return
        self.dismiss(game.key)

    @on(Button.Pressed, "#new")
    def action_new_game(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#delete")
    def action_delete(self) -> None:
        game = self._chosen()
        if game is None:
            return
        if game.owner is not None:
            self.notify(
                _("This game is {status}: it cannot be deleted.").format(status=game.status),
                severity="warning",
                markup=False,
            )
            return

        def answered(ok: bool | None) -> None:
            if ok:
                self._delete(game)

        def question() -> str:
            return (
                _("Delete the unfinished game of {variant} ({players}, {moves})?").format(
                    variant=variant_name(game),
                    players=players_text(game),
                    moves=ngettext("{n} move", "{n} moves", game.moves).format(n=game.moves),
                )
                + " "
                + _("It cannot be undone.")
            )

        self.app.push_screen(ConfirmScreen(question), answered)

    def _delete(self, game: Unfinished) -> None:
        problem = self.shashki.delete_unfinished(game.key)
        if problem is not None:
            self.notify(problem, severity="error", timeout=8, markup=False)
            return
        del self.games[game.key]
        if not any(g.resumable for g in self.games.values()):
            self.dismiss(None)
            return
        games = self.query_one("#games", OptionList)
        games.remove_option(game.key)
        if games.highlighted_option is None or games.highlighted_option.disabled:
            games.highlighted = next(
                (i for i, o in enumerate(games.options) if not o.disabled), None
            )
        self.query_one("#title", Static).update(self._title())
