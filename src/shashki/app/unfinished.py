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
from ..session.autosave import one_line
from ..session.seats import PERSON, Engines, LevelSeat, NamedEngineSeat, Seat
from .dialogs import ConfirmScreen
from .plain import visible
from .players import seat_from_file
from .shell import Shell, shell_of
from .widgets import Button, Dialog, PagedOptionList, relabel_button

if TYPE_CHECKING:
    from ..records import GameRecord
    from ..store import Unfinished
    from ..store.autosaves import Scan
    from .controller import GameController


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
    #: Under 30 rows the list is shorter: the buttons stay in view (60x20).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]

    def __init__(self, games: list[Unfinished]) -> None:
        super().__init__()
        self.games = {g.key: g for g in games}

    @property
    def shashki(self) -> Shell:
        return shell_of(self)

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


class UnfinishedGames(Shell):
    """The unfinished games of the autosave folder: listed, resumed, deleted (a part of
    :class:`~shashki.app.app.ShashkiApp`)."""

    def tidy_autosaves(self) -> Scan:
        """Look at the autosave folder (adopting an old single autosave, clearing what
        killed saves left, moving damaged files aside) and say in one line what was
        damaged."""
        from ..store import scan_autosaves

        self.flush_autosave()  # this process's own last states first
        found = scan_autosaves()
        report = found.damage_report()
        if report:
            self.notify(report, severity="warning", timeout=12, markup=False)
        for problem in found.problems:
            self.notify(problem, severity="warning", timeout=10, markup=False)
        return found

    def show_unfinished(self) -> None:
        """The list of unfinished games (the menu's u)."""
        if not self.autosave_enabled:
            self.notify(
                _("Autosave is off: there are no unfinished games."), timeout=5, markup=False
            )
            return
        found = self.tidy_autosaves()
        if not found.games:
            self.notify(_("No unfinished games."), timeout=5, markup=False)
            return
        self._list_unfinished(found)

    def _list_unfinished(self, found: Scan) -> None:
        from .unfinished import UnfinishedScreen

        def chosen(key: str | None) -> None:
            if key is not None:
                self.resume_unfinished(key)

        self.push_screen(UnfinishedScreen(found.games), chosen)

    def resume_unfinished(self, key: str) -> GameController | None:
        """Go on with an unfinished game of the autosave folder (taking its lock, so no
        other shashki can); says in one line why not when it cannot."""
        from ..store import AutosaveSlot, DamagedSave
        from ..store.autosaves import UnknownVariant

        self.flush_autosave()
        try:
            slot, record = AutosaveSlot.claim(key)
        except FileNotFoundError:
            self.notify(
                _("That game is not there any more: it ended or was deleted."),
                timeout=8,
                markup=False,
            )
            return None
        except (DamagedSave, UnknownVariant, OSError) as exc:
            self.notify(
                _("Cannot resume that game: {reason}.").format(reason=one_line(exc)),
                severity="error",
                timeout=10,
                markup=False,
            )
            return None
        game = record.end().replay()  # checked by claim()
        if game.outcome() is not None:
            slot.release()
            self.notify(_("That game is over already."), timeout=8, markup=False)
            return None
        from ..online.room import TAG

        if record.header(TAG):  # an online game: hosted again, or joined again
            from .online import resume_online

            online = resume_online(self, record, game, slot)
            if online is not None:
                return online
        names = (record.header("White"), record.header("Black"))
        engines = self.settings.engine_list
        seats = (seat_kind(record, "White", engines), seat_kind(record, "Black", engines))
        kinds = (seats[0][0], seats[1][0])
        from ..records.clocks import record_clocks, time_control

        control = time_control(record)
        marks = record_clocks(record) if control is not None else None
        controller = self.resume_game(
            game, names, kinds, slot=slot, clock=control, clock_marks=marks
        )
        for _kind, note in seats:  # a seat the file names that cannot be: one line each
            if note is not None:
                self.notify(note, severity="warning", timeout=10, markup=False)
        return controller

    def delete_unfinished(self, key: str) -> str | None:
        """Delete an unfinished game; None when done, else why not in one line."""
        from ..store import GameLocked, delete_unfinished

        self.flush_autosave()
        try:
            delete_unfinished(key)
        except FileNotFoundError:
            return None  # gone already: what was asked
        except GameLocked as exc:
            return _("Not deleted: it is {status}.").format(status=exc)
        except OSError as exc:
            return _("Not deleted: {reason}.").format(reason=one_line(exc))
        return None


def seat_kind(record: GameRecord, side: str, engines: Engines) -> tuple[Seat, str | None]:
    """The seat a saved game's tags give one side, and a line for the player when the
    tags name a player that cannot be seated (None when all is well).

    A file seats a person, a computer level 1-8 (``{side}Level``) or one of ``engines``
    (the user's settings') by its name (``{side}Engine``); anything else is a person.
    A file never gives a command: ``hub:…`` in any tag seats a person."""
    from ..records.quoting import quote

    if record.header(f"{side}Type").strip().lower() != "program":
        return PERSON, None
    engine = record.header(f"{side}Engine").strip()
    if engine:  # an engine of the user's settings, by name; a file never gives a command
        seat = seat_from_file(engine, engines=engines)
        if isinstance(seat, NamedEngineSeat):
            return seat, None
        return PERSON, _(
            "The saved game names the engine {name} (tag {tag}), which the settings do not "
            "have: a person plays that side."
        ).format(name=quote(engine, 40), tag=f"{side}Engine")
    level = record.header(f"{side}Level").strip()
    if not level:  # (a Hub engine of a typed command: its command is not in the file)
        return PERSON, _(
            "The saved game does not name its program (tag {tag}) by a computer level or "
            "an engine of the settings: a person plays that side."
        ).format(tag=f"{side}Type")
    seat = seat_from_file(level, engines=engines)
    if isinstance(seat, LevelSeat):
        return seat, None
    return PERSON, _(
        "The saved game's tag {tag} {value} is not a computer level from 1 to 8: a person "
        "plays that side."
    ).format(tag=f"{side}Level", value=quote(level, 40))
