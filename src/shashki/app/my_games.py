"""My games: every finished game, newest first, to filter, replay, export or delete, and
the player's score against each opponent.

The games are those :mod:`shashki.store.archive` keeps (one PDN file a game in the
data folder), where a game's recorder (:mod:`shashki.session.recorder`) puts it as it
ends.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import DataTable

from ..i18n import N_, _, ngettext
from ..store.studies import Origin
from .dialogs import ConfirmScreen
from .plain import Plain, visible
from .shell import Shell, shell_of
from .widgets import LocalFooter, RowTable, ScreenHeader, Select, relabel_select

if TYPE_CHECKING:
    from ..records import GameRecord
    from ..store.archive import ArchiveScan, KeptGame, Seat


# -- words ------------------------------------------------------------------------------

#: How a game ended (the ``Ending`` tag: a Termination's value), said briefly.
ENDINGS = {
    "no legal moves": N_("no move left"),
    "goal reached": N_("goal reached"),
    "first king": N_("first king"),
    "repetition": N_("repetition"),
    "move limit": N_("move limit"),
    "endgame move limit": N_("endgame limit"),
    "drawn material": N_("drawn material"),
    "tie-break": N_("tie-break"),
    "resignation": N_("resignation"),
    "time forfeit": N_("out of time"),
    "agreed draw": N_("agreed draw"),
    "abandoned": N_("left the game"),
    "forfeit": N_("forfeit"),
    "adjudication": N_("adjudicated"),
    "abandoned unfinished": N_("abandoned"),
}

#: The result filter's choices: (label, score).
RESULTS = [(N_("won"), "won"), (N_("drawn"), "drawn"), (N_("lost"), "lost")]
#: A filter's "any" value.
ANY = "\x00any"


def ending_text(game: KeptGame) -> str:
    if not game.ending:
        return "?"
    return _(ENDINGS[game.ending]) if game.ending in ENDINGS else game.ending


def variant_text(game: KeptGame) -> str:
    """The game's variant by name (in the language spoken now), or its tag."""
    if game.variant is not None:
        return game.variant.local_name
    return game.headers.get("Variant") or f"GameType {game.headers.get('GameType', '?')}"


def seat_text(game: KeptGame, side: int) -> str:
    """A player as the screens say it: the computer by level, a side's own name in the
    language spoken now, any other name as written."""
    seat = game.seats[side]
    variant = game.variant
    # a program seated without a name of its own is called by the side's ("Black")
    unnamed = variant is not None and seat.name == variant.side_names[side]
    if seat.kind == "computer" and (unnamed or seat.name == f"Computer {seat.level}"):
        return _("Computer {n}").format(n=seat.level)
    if seat.kind == "engine" and unnamed:
        return seat.engine
    if variant is not None and seat.kind == "person" and unnamed:
        return variant.local_side(side)
    return seat.name


def opponent_text(game: KeptGame, seat: Seat) -> str:
    """An opponent of the summary and the filter, in the language spoken now."""
    if seat.kind == "person" and game.variant is not None:
        for side in (0, 1):
            if game.seats[side] is seat:
                return seat_text(game, side)
    return seat.label()


def result_text(game: KeptGame) -> str:
    """The result, and what it was for the player: "1-0 won"."""
    shown = {"1/2-1/2": "½-½"}.get(game.result, game.result)
    score = game.score
    if score is None:
        return shown
    return f"{shown} {_(dict((v, k) for k, v in RESULTS)[score])}"


def date_text(stamp: float) -> str:
    """The day a game was kept."""
    return time.strftime("%Y-%m-%d", time.localtime(stamp))


def moves_text(game: KeptGame) -> str:
    return "?" if game.moves is None else str(game.moves)


# -- the screen -------------------------------------------------------------------------


class MyGamesScreen(Screen[None]):
    """Every kept game, newest first; filters by variant, opponent and result; Enter
    replays, ``e`` exports, ``d`` deletes (asking), ``s`` shows the score per opponent."""

    DEFAULT_CSS = """
    MyGamesScreen #filters { height: 3; }
    MyGamesScreen #filters Select { width: 1fr; }
    MyGamesScreen #status { height: auto; max-height: 3; color: $text-muted; padding: 0 1; }
    MyGamesScreen DataTable { height: 1fr; }
    MyGamesScreen .-hidden { display: none; }
    """

    BINDINGS = [
        Binding("escape,q", "back", N_("Back")),
        Binding("enter", "replay", N_("Replay"), key_display="⏎"),
        Binding("R", "replay(True)", N_("Review"), key_display="R"),
        Binding("e", "export", N_("Export")),
        Binding("d,delete", "delete", N_("Delete")),
        Binding("s", "summary", N_("Score")),
        Binding("v", "cycle('variant')", N_("Variant")),
        Binding("o", "cycle('opponent')", N_("Opponent")),
        Binding("r", "cycle('result')", N_("Result")),
    ]

    #: Rows added to the table at once; the others follow a batch at a time.
    BATCH = 200
    #: The list's columns.
    COLUMNS = (
        N_("Date"),
        N_("Variant"),
        N_("White"),
        N_("Black"),
        N_("Result"),
        N_("Moves"),
        N_("Ending"),
    )

    def __init__(self) -> None:
        super().__init__()
        self.games: list[KeptGame] = []
        #: The games shown (the filters'), in the table's order.
        self.shown: list[KeptGame] = []
        #: Whether the archive has been read (the list is filled).
        self.loaded = False
        self.showing_summary = False
        #: Bumped at every fill of the table: a batch of an earlier fill is dropped.
        self._generation = 0
        #: Rows of :attr:`shown` in the table so far.
        self._added = 0
        #: The game to put the cursor on once its row is in the table.
        self._cursor_to: KeptGame | None = None
        self.filters = {"variant": ANY, "opponent": ANY, "result": ANY}

    @property
    def shashki(self) -> Shell:
        return shell_of(self)

    def compose(self) -> ComposeResult:
        yield ScreenHeader()
        with Horizontal(id="filters"):
            yield Select([], prompt=_("any variant"), id="f-variant")
            yield Select([], prompt=_("any opponent"), id="f-opponent")
            yield Select(self._result_choices(), prompt=_("any result"), id="f-result")
        yield Plain(_("Reading…"), id="status")
        yield RowTable(id="games", cursor_type="row", zebra_stripes=True)
        yield RowTable(id="summary", cursor_type="row", classes="-hidden")
        yield LocalFooter()

    def on_mount(self) -> None:
        self.title = _("shashki")
        self.sub_title = _("My games")
        self._columns()
        self.query_one("#games", DataTable).focus()
        self.load()

    def _columns(self) -> None:
        table = self.query_one("#games", DataTable)
        table.clear(columns=True)
        table.add_columns(*(_(c) for c in self.COLUMNS))
        summary = self.query_one("#summary", DataTable)
        summary.clear(columns=True)
        summary.add_columns(_("Opponent"), _("Games"), _("won"), _("drawn"), _("lost"))

    def retranslate(self) -> None:
        """Every word in the language spoken now; the filters and the game chosen stay."""
        self.title = _("shashki")
        self.sub_title = _("My games")
        for name, prompt in (
            ("variant", _("any variant")),
            ("opponent", _("any opponent")),
            ("result", _("any result")),
        ):
            self.query_one(f"#f-{name}", Select).prompt = prompt
        relabel_select(self.query_one("#f-result", Select), self._result_choices())
        if self.loaded:
            relabel_select(self.query_one("#f-variant", Select), self._variant_choices())
            relabel_select(self.query_one("#f-opponent", Select), self.opponent_choices())
        self._columns()
        self._fill()

    # -- reading ------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="my-games")
    def load(self) -> None:
        """Read the archive (its tags only) in a thread; the list fills when done."""
        from ..store.archive import scan

        found = scan()
        try:
            self.app.call_from_thread(self._loaded, found)
        except RuntimeError:  # the app has gone meanwhile
            pass

    def _loaded(self, found: ArchiveScan) -> None:
        if not self.is_attached:
            return
        self.games = found.games
        try:
            with self.prevent(Select.Changed):
                self.query_one("#f-variant", Select).set_options(self._variant_choices())
                self.query_one("#f-opponent", Select).set_options(self.opponent_choices())
            self._fill()
        except NoMatches:  # the screen is being taken down (the app quit meanwhile)
            return
        self.loaded = True
        for line in [*found.problems, found.damage_report()]:
            if line:
                self.notify(line, severity="warning", timeout=10, markup=False)

    # -- the filters --------------------------------------------------------------------

    def _result_choices(self) -> list[tuple[str, str]]:
        return [(_(label), value) for label, value in RESULTS]

    def _variant_choices(self) -> list[tuple[Text, str]]:
        names: dict[str, str] = {}
        for game in self.games:
            key = game.variant.id if game.variant is not None else "?" + variant_text(game)
            names.setdefault(key, variant_text(game))
        return [
            (Text(visible(name)), key)
            for key, name in sorted(names.items(), key=lambda kv: kv[1].casefold())
        ]

    def opponent_choices(self) -> list[tuple[Text, str]]:
        """The opponent filter's choices: each opponent of the games listed, by name."""
        names: dict[str, str] = {}
        for game in self.games:
            opponent = game.opponent
            if opponent is not None:
                names.setdefault(opponent.key, opponent_text(game, opponent))
        return [
            (Text(visible(name)), key)
            for key, name in sorted(names.items(), key=lambda kv: kv[1].casefold())
        ]

    def _passes(self, game: KeptGame) -> bool:
        variant, opponent, result = (self.filters[k] for k in ("variant", "opponent", "result"))
        if variant != ANY:
            key = game.variant.id if game.variant is not None else "?" + variant_text(game)
            if key != variant:
                return False
        if opponent != ANY and (game.opponent is None or game.opponent.key != opponent):
            return False
        return result == ANY or game.score == result

    @on(Select.Changed)
    def _filter_chosen(self, event: Select.Changed) -> None:
        name = (event.select.id or "").removeprefix("f-")
        if name in self.filters:
            value = event.value
            self.filters[name] = ANY if value is Select.NULL else str(value)
            self._fill()

    def _values(self, name: str) -> list[str]:
        """The values of the filter ``name``, "any" first."""
        if name == "variant":
            values = [value for _label, value in self._variant_choices()]
        elif name == "opponent":
            values = [value for _label, value in self.opponent_choices()]
        else:
            values = [value for _label, value in self._result_choices()]
        return [ANY, *values]

    def action_cycle(self, name: str) -> None:
        """The filter ``name``'s next choice (after the last: any)."""
        values = self._values(name)
        current = self.filters[name]
        following = values[(values.index(current) + 1) % len(values)] if current in values else ANY
        select = self.query_one(f"#f-{name}", Select)
        with select.prevent(Select.Changed):
            select.value = Select.NULL if following == ANY else following
        self.filters[name] = following
        self._fill()

    # -- the list -----------------------------------------------------------------------

    def _fill(self) -> None:
        """The table shows the games that pass the filters, and the summary of those; the
        first rows at once, the rest a batch at a time (keys are handled in between)."""
        from ..store.archive import summary

        table = self.query_one("#games", DataTable)
        chosen = self.chosen
        self._generation += 1
        table.clear()
        self.shown = [g for g in self.games if self._passes(g)]
        self._added = 0
        self._cursor_to = chosen if chosen is not None and chosen in self.shown else None
        self._add_rows(self._generation)
        scores = self.query_one("#summary", DataTable)
        scores.clear()
        labels = {g.opponent.key: opponent_text(g, g.opponent) for g in self.shown if g.opponent}
        for score in summary(self.shown):
            scores.add_row(
                Text(visible(labels.get(score.key, score.label))),
                str(score.games),
                str(score.won),
                str(score.drawn),
                str(score.lost),
                key=score.key,
            )
        self._say_count()

    @property
    def filled(self) -> bool:
        """Whether every game shown has its row in the table."""
        return self.loaded and self._added == len(self.shown)

    def _add_rows(self, generation: int) -> None:
        """Add the next batch of rows (of the fill ``generation``: a later fill stops an
        earlier one)."""
        if generation != self._generation or not self.is_attached:
            return
        try:
            table = self.query_one("#games", DataTable)
        except NoMatches:  # the screen is being taken down
            return
        start = self._added
        for game in self.shown[start : start + self.BATCH]:
            table.add_row(
                date_text(game.when),
                Text(visible(variant_text(game))),
                Text(visible(seat_text(game, 0))),
                Text(visible(seat_text(game, 1))),
                result_text(game),
                moves_text(game),
                Text(visible(ending_text(game))),  # a file's words: never markup
                key=game.key,
            )
        self._added = min(len(self.shown), start + self.BATCH)
        target = self._cursor_to
        if target is not None:
            index = self.shown.index(target)
            if index < self._added:
                table.move_cursor(row=index)
                self._cursor_to = None
        if self._added < len(self.shown):
            self.call_later(self._add_rows, generation)

    def _say_count(self) -> None:
        status = self.query_one("#status", Plain)
        if not self.games:
            status.update(_("No finished games yet: every game played to its end is kept here."))
            return
        line = ngettext("{n} game", "{n} games", len(self.shown)).format(n=len(self.shown))
        if len(self.shown) != len(self.games):
            line = _("{shown} of {total}").format(shown=line, total=len(self.games))
        hint = _("Enter replays, e exports, d deletes, s shows the score per opponent.")
        status.update(f"{line} · {hint}")

    @property
    def chosen(self) -> KeptGame | None:
        """The game highlighted in the list, if any."""
        table = self.query_one("#games", DataTable)
        if not self.shown or not table.row_count:
            return None
        row = table.cursor_row
        return self.shown[row] if 0 <= row < min(self._added, len(self.shown)) else None

    # -- actions ------------------------------------------------------------------------

    def action_back(self) -> None:
        """Esc or q: from the score per opponent back to the list; from the list, out."""
        if self.showing_summary:
            self.action_summary()
            return
        self.dismiss(None)

    @on(DataTable.RowSelected, "#games")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_replay()

    @on(DataTable.RowSelected, "#summary")
    def _opponent_chosen(self, event: DataTable.RowSelected) -> None:
        """Enter on an opponent of the score: the list of the games against him."""
        event.stop()
        key = event.row_key.value
        if key is None:
            return
        select = self.query_one("#f-opponent", Select)
        with select.prevent(Select.Changed):
            select.value = key
        self.filters["opponent"] = key
        self.action_summary()
        self._fill()

    def action_replay(self, review: bool = False) -> None:
        """Replay the game chosen (Enter), or review it (R)."""
        game = self.chosen
        if game is None or self.showing_summary:
            return
        record = self._read(game)
        if record is not None:
            origin = Origin(kept=game.key, player_side=game.player_side)
            self.shashki.open_record(record, source=game.path.name, origin=origin, review=review)

    def _read(self, game: KeptGame) -> GameRecord | None:
        """The whole record of ``game``; None (said in one line) when it cannot be read:
        a damaged file is moved aside and leaves the list."""
        from ..store.archive import read_kept
        from ..store.autosaves import DamagedSave

        try:
            return read_kept(game)
        except DamagedSave as exc:
            self._forget(game)
            self.notify(
                _("This game's file is damaged: {reason}.").format(reason=exc),
                severity="error",
                timeout=10,
                markup=False,
            )
        except FileNotFoundError:
            self._forget(game)
            self.notify(_("This game's file is gone."), severity="warning", markup=False)
        except (OSError, ValueError) as exc:
            self.notify(str(exc), severity="error", timeout=10, markup=False)
        return None

    def action_export(self) -> None:
        from ..store.archive import export_kept
        from ..store.autosaves import DamagedSave

        game = self.chosen
        if game is None or self.showing_summary:
            return
        try:
            path = export_kept(game)
        except DamagedSave as exc:
            self._forget(game)
            self.notify(
                _("This game's file is damaged: {reason}.").format(reason=exc),
                severity="error",
                timeout=10,
                markup=False,
            )
            return
        except FileNotFoundError:
            self._forget(game)
            self.notify(_("This game's file is gone."), severity="warning", markup=False)
            return
        except (OSError, ValueError) as exc:
            self.notify(
                _("Not exported: {reason}").format(reason=" ".join(str(exc).split())),
                severity="error",
                timeout=10,
                markup=False,
            )
            return
        self.notify(_("Exported to {path}").format(path=path), timeout=10, markup=False)

    def action_delete(self) -> None:
        game = self.chosen
        if game is None or self.showing_summary:
            return

        def question() -> str:
            moves = game.moves or 0
            return (
                _("Delete the game of {variant} ({players}, {result}, {moves}, {date})?").format(
                    variant=variant_text(game),
                    players=_("{white} v {black}").format(
                        white=seat_text(game, 0), black=seat_text(game, 1)
                    ),
                    result=result_text(game),
                    moves=ngettext("{n} move", "{n} moves", moves).format(n=moves),
                    date=date_text(game.when),
                )
                + " "
                + _("It cannot be undone.")
            )

        def answered(ok: bool | None) -> None:
            if ok:
                self._delete(game)

        self.app.push_screen(ConfirmScreen(question), answered)

    def _delete(self, game: KeptGame) -> None:
        from ..store.archive import delete_kept

        try:
            delete_kept(game)
        except OSError as exc:
            self.notify(
                _("Not deleted: {reason}").format(reason=" ".join(str(exc).split())),
                severity="error",
                timeout=10,
                markup=False,
            )
            return
        self._forget(game)
        self.notify(_("Deleted."), markup=False)

    def _forget(self, game: KeptGame) -> None:
        """Take a game off the list (deleted, gone, or moved aside)."""
        row = self.shown.index(game) if game in self.shown else 0
        if game in self.games:
            self.games.remove(game)
        self._fill()
        table = self.query_one("#games", DataTable)
        if table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1))

    def action_summary(self) -> None:
        """Show the score per opponent instead of the list, or the list again."""
        self.showing_summary = not self.showing_summary
        games = self.query_one("#games", DataTable)
        scores = self.query_one("#summary", DataTable)
        games.set_class(self.showing_summary, "-hidden")
        scores.set_class(not self.showing_summary, "-hidden")
        (scores if self.showing_summary else games).focus()


__all__ = ["ENDINGS", "MyGamesScreen"]
