"""Running an event: its games several at once, each kept the moment it ends, so that an
event stopped (Ctrl+C, a crash, the machine off) starts again where it was without losing
or playing again a finished game.

The event's folder holds::

    event.toml          the event (written at its first start; a later start checks that
                        the folder's games are this event's)
    games/0001.pdn      each finished game, written whole and renamed into place
    event.pdn           every finished game in the order of their numbers
    crosstable.txt      the standings and the crosstable, as text
    crosstable.html     the same, as a web page
    live/0003.txt       the move a game in play has reached (for the live table)

Each game is played in a process of its own (a pool of ``concurrency`` processes: the
engine's searches do not share one interpreter), its players made there from their seat
words — except the games of a DXP engine, played in a thread of this process on the one
connection the engine keeps for the whole event (Scan takes one connection only).  A
player plays one game at a time.  A player that crashes, hangs or answers a move that is
not legal loses that game (its record says why) and the event goes on; a game whose
process itself died is played again at the next start.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import re
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from ..base.ownfiles import open_in_place, own_folder, replace_file
from ..base.userfiles import read_limited
from ..base.workers import start_worker, worker_starts
from ..engine.limits import Limit
from ..i18n import N_, _, language, set_language
from ..records import read_games, write_game
from ..rules import Game, Move, find_variant
from ..rules.variant import Variant
from ..session.players import Cancelled, Player
from ..store.settings import EngineSetting
from .event import Event, EventError
from .schedule import Pairing, gauntlet, round_robin, swiss
from .standings import Played, standings, table_html, table_text

#: White's score by result.
_SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@dataclass(frozen=True)
class Job:
    """One game to play, as a worker process needs it (plain, picklable data)."""

    number: int
    round: int
    variant: str
    white: tuple[str, str]  # (name, seat words)
    black: tuple[str, str]
    opening: object  # a shashki.hub.match.Opening
    seconds: float | None
    depth: int | None
    clock: str
    max_plies: int
    event: str
    live: str
    engines: tuple[EngineSetting, ...] = ()
    #: The depth each side is held to, if any (White's, Black's).
    depths: tuple[int | None, int | None] = (None, None)


@dataclass(frozen=True)
class Finished:
    """A game played: its number, White's score, its PDN text and why it ended; or the
    ``error`` that kept it from being played (it is played again next time)."""

    number: int
    score: float = 0.5
    pdn: str = ""
    why: str = ""
    error: str = ""


class HeldTo(Player):
    """A player held to a ``depth``, whatever the game's limit says (Scan's ladder)."""

    is_human = False

    def __init__(self, player: Player, depth: int) -> None:
        self.player, self.depth = player, depth
        self.name = player.name

    def start(self, variant: Variant) -> None:
        self.player.start(variant)

    def think(self, game: Game, limit: Limit, cancelled: Cancelled) -> Move | None:
        return self.player.think(game, Limit(depth=self.depth), cancelled)

    def answer_draw(self, game: Game) -> bool | None:
        return self.player.answer_draw(game)

    def game_over(self, game: Game) -> None:
        self.player.game_over(game)

    def close(self) -> None:
        self.player.close()


#: How each format is said on the screen and in the tables (``_(name)``).
FORMAT_NAMES = {
    "round-robin": N_("round robin"),
    "gauntlet": N_("gauntlet (the first against the others)"),
    "swiss": N_("Swiss system"),
}


def _quiet_worker(language: str = "en") -> None:
    """A worker leaves Ctrl+C to the event (which stops it), and ends when the event's
    process is gone (killed, crashed: the pool cannot tell its workers then, and a worker
    would wait for a next game forever, an engine it started beside it); it speaks the
    event's ``language`` (why a game ended, said by the event as each game ends)."""
    set_language(language)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="shashki event watch", daemon=True).start()


def play_job(job: Job, players: dict[str, object] | None = None) -> Finished:
    """Play ``job``'s game (in a worker process, or a thread for a DXP engine's game,
    ``players`` then holding the players kept for the event by seat words)."""
    from ..hub.match import Opening, match_player, play_game
    from ..records.clocks import TimeControl

    try:
        variant = find_variant(job.variant)
        made: list[Player] = []
        seated: list[Player] = []
        for side, (_name, seat) in enumerate((job.white, job.black)):
            kept = (players or {}).get(seat)
            if isinstance(kept, Player):
                seated.append(kept)
                continue
            player = match_player(seat, seed=job.number * 2 + side, engines=job.engines)
            made.append(player)
            depth = job.depths[side]
            seated.append(player if depth is None else HeldTo(player, depth))
        live = Path(job.live)

        def on_move(session: object) -> None:
            game = getattr(session, "game", None)
            if game is not None:
                with contextlib.suppress(OSError):  # (never through a link put there)
                    with os.fdopen(open_in_place(live), "w", encoding="utf-8") as out:
                        out.truncate(0)
                        out.write(f"{game.fullmove_number} {len(game.move_stack)}\n")

        opening = job.opening
        assert isinstance(opening, Opening)
        try:
            record, score, why = play_game(
                variant,
                seated[0],
                seated[1],
                opening,
                max_plies=job.max_plies,
                headers={
                    "Event": job.event,
                    "Date": time.strftime("%Y.%m.%d"),
                    "Round": f"{job.round}.{job.number}",
                    **({"Opening": opening.label} if opening.label else {}),
                },
                limit=Limit(seconds=job.seconds, depth=job.depth),
                clock=TimeControl.parse(job.clock) if job.clock else None,
                on_move=on_move,
            )
        finally:
            for player in made:
                player.close()
            with contextlib.suppress(OSError):
                live.unlink()
        record.headers["White"], record.headers["Black"] = job.white[0], job.black[0]
        return Finished(job.number, score, write_game(record), why)
    except Exception as exc:  # (one game's trouble never stops the event)
        return Finished(job.number, error=f"{type(exc).__name__}: {exc}")


@dataclass
class InPlay:
    """A game being played, for the live table."""

    pairing: Pairing
    started: float = field(default_factory=time.monotonic)


class Tournament:
    """One event in its folder: what is finished, what is to play, and the playing."""

    def __init__(self, event: Event, *, engines: Sequence[EngineSetting] = ()) -> None:
        self.event = event
        #: The engines of the settings the entrants may name (each game's job carries them).
        self.engines = tuple(engines)
        self.folder = event.folder
        self.names = [e.name for e in event.entrants]
        self.swiss = event.format == "swiss"
        #: White's score of each finished game, by number.
        self.results: dict[int, float] = {}
        self.pairings: dict[int, Pairing] = {}
        self.byes: list[tuple[int, int]] = []
        self.in_play: dict[int, InPlay] = {}
        #: One line for each game that ended (the newest last), for the live display.
        self.said: list[str] = []
        self.openings: list[object] = []
        self.stopping = threading.Event()

    # -- the folder

    def prepare(self) -> None:
        """Make the folder (or check it holds this event), read the openings and the
        finished games; raises EventError."""
        from ..hub.match import Opening, read_openings
        from .event import openings_path

        event = self.event
        try:
            # (real folders of this user's: a game is never written through a link)
            own_folder(self.folder / "games")
            own_folder(self.folder / "live")
        except OSError as exc:
            raise EventError(
                _("cannot make the folder {path}: {reason}").format(
                    path=self.folder, reason=exc.strerror or exc
                )
            ) from None
        described = self.folder / "event.toml"
        text = event.toml()
        if described.exists():
            try:
                old = read_limited(described, 256 * 1024).decode("utf-8", "replace")
            except OSError:
                old = ""
            if _who(old) != _who(text) and any((self.folder / "games").iterdir()):
                raise EventError(
                    _(
                        "the folder {path} holds the games of another event (other players "
                        "or format): give this one another folder"
                    ).format(path=self.folder)
                )
        self._write(described, text)
        path = openings_path(event)
        variant = find_variant(event.variant)
        if path:
            from ..rules.errors import ShashkiError

            try:
                self.openings = list(
                    read_openings(path, variant, count=event.openings_count or None)
                )
            except ShashkiError as exc:
                raise EventError(str(exc)) from None
        else:
            self.openings = [Opening(None)]
        for file in sorted((self.folder / "games").glob("*.pdn")):
            match = re.fullmatch(r"(\d{1,6})\.pdn", file.name)
            if not match:
                continue
            try:
                (record,) = read_games(str(file))
            except Exception:
                continue  # (a damaged file: the game is played again)
            score = _SCORES.get(record.result)
            if score is not None:
                self.results[int(match[1])] = score
        for stale in (self.folder / "live").glob("*.txt"):
            with contextlib.suppress(OSError):
                stale.unlink()
        self.schedule()

    def _write(self, path: Path, text: str) -> None:
        try:
            replace_file(path, text.encode("utf-8"))
        except (OSError, ValueError) as exc:
            raise EventError(
                _("cannot write {path}: {reason}").format(
                    path=path, reason=getattr(exc, "strerror", None) or exc
                )
            ) from None

    def schedule(self) -> list[Pairing]:
        """Every game known now (a Swiss event's next round once its last is played)."""
        n, k = len(self.names), len(self.openings)
        if self.event.format == "gauntlet":
            games = gauntlet(n, k)
        elif self.swiss:
            games, self.byes = swiss(n, self.event.rounds, k, self.results)
        else:
            games = round_robin(n, k)
        self.pairings = {g.number: g for g in games}
        return games

    def total(self) -> int:
        """The games of the whole event (a Swiss event's: its rounds' pairings)."""
        n, k = len(self.names), len(self.openings)
        if self.event.format == "gauntlet":
            return (n - 1) * 2 * k
        if self.swiss:
            return self.event.rounds * (n // 2) * 2
        return n * (n - 1) * k

    def played(self) -> list[Played]:
        return [
            (self.pairings[n], s) for n, s in sorted(self.results.items()) if n in self.pairings
        ]

    def standings_text(self) -> str:
        rows = standings(self.names, self.played(), swiss=self.swiss, byes=self.byes)
        return table_text(self.names, rows, self.played(), swiss=self.swiss)

    def write_tables(self) -> None:
        """event.pdn, crosstable.txt and crosstable.html, from the finished games."""
        parts = []
        for number in sorted(self.results):
            with contextlib.suppress(OSError):
                parts.append(
                    read_limited(self.folder / "games" / f"{number:04d}.pdn", 16 * 1024 * 1024)
                    .decode("utf-8", "replace")
                    .strip()
                )
        self._write(self.folder / "event.pdn", "\n\n".join(parts) + "\n" if parts else "")
        played = self.played()
        rows = standings(self.names, played, swiss=self.swiss, byes=self.byes)
        self._write(
            self.folder / "crosstable.txt",
            self.heading() + "\n\n" + table_text(self.names, rows, played, swiss=self.swiss),
        )
        self._write(
            self.folder / "crosstable.html",
            table_html(
                self.event.name, self.names, rows, played, swiss=self.swiss, lines=[self.heading()]
            ),
        )

    def heading(self) -> str:
        event = self.event
        if event.clock:
            limit = _("clock {clock}").format(clock=event.clock)
        elif event.depth is not None:
            limit = _("depth {depth}").format(depth=event.depth)
        else:
            seconds = event.time if event.time is not None else 0.5
            limit = _("{seconds} s a move").format(seconds=f"{seconds:g}")
        return _("{name}: {variant}, {format}, {limit}, {done} of {total} games").format(
            name=event.name,
            variant=find_variant(event.variant).local_name,
            format=_(FORMAT_NAMES.get(event.format, event.format)),
            limit=limit,
            done=len(self.results),
            total=self.total(),
        )

    # -- playing

    def _job(self, pairing: Pairing) -> Job:
        event = self.event
        white, black = event.entrants[pairing.white], event.entrants[pairing.black]
        return Job(
            number=pairing.number,
            round=pairing.round,
            variant=event.variant,
            white=(white.name, white.seat),
            black=(black.name, black.seat),
            depths=(white.depth, black.depth),
            opening=self.openings[pairing.opening % len(self.openings)],
            seconds=event.time if not event.clock and event.depth is None else None,
            depth=event.depth,
            clock=event.clock,
            max_plies=event.max_plies,
            event=event.name,
            live=str(self.folder / "live" / f"{pairing.number:04d}.txt"),
            engines=self.engines,
        )

    def live_move(self, number: int) -> str:
        """The move a game in play has reached, as its worker last wrote it."""
        try:
            live = self.folder / "live" / f"{number:04d}.txt"
            return read_limited(live, 100).decode("ascii", "replace").split()[0]
        except (OSError, ValueError, IndexError):
            return "1"

    def run(self, on_change: Callable[[], None] = lambda: None) -> bool:
        """Play the games not yet finished; True when the event is complete.  Ctrl+C
        (KeyboardInterrupt) stops it: the games in play are left (played again next
        time), the finished ones are kept."""
        playing = _Playing(self)
        self.write_tables()
        try:
            while True:
                pending = playing.pending()
                if not pending and not self.in_play:
                    break
                playing.start(pending)
                on_change()
                if not self.in_play:
                    break  # (nothing can start: the rest waits for another start)
                try:
                    finished = playing.done.get(timeout=0.25)
                except queue.Empty:
                    continue
                playing.finish(finished)
        finally:
            playing.close()
        return len(self.results) >= self.total() and not playing.failed

    def _pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.event.concurrency,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_worker,  # (what this process runs: compiled or pure)
            initargs=(0, (*worker_starts(), (__name__, "_quiet_worker", (language(),)))),
        )


class _Playing:
    """One run of :meth:`Tournament.run`: the games in play, the entrants playing, the
    processes (and the DXP players held across games) that play them."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.done: queue.Queue[Finished] = queue.Queue()
        self.dxp_seats = {e.seat for e in tournament.event.entrants if e.seat.startswith("dxp:")}
        self.kept: dict[str, object] = {}
        self.busy: set[int] = set()
        #: Games whose process died: left to the next start.
        self.failed: set[int] = set()
        self.pool = tournament._pool()
        self.futures: dict[int, Future[Finished]] = {}

    def pending(self) -> list[Pairing]:
        """The games of the schedule neither finished, in play nor failed."""
        t = self.tournament
        return [
            g
            for g in t.schedule()
            if g.number not in t.results
            and g.number not in t.in_play
            and g.number not in self.failed
        ]

    def start(self, pending: list[Pairing]) -> None:
        """Start the pending games whose entrants are free, up to the event's concurrency."""
        t = self.tournament
        for g in pending:
            if len(t.in_play) >= t.event.concurrency:
                break
            if g.white in self.busy or g.black in self.busy:
                continue
            self.busy |= {g.white, g.black}
            t.in_play[g.number] = InPlay(g)
            self._play(g, t._job(g))

    def _play(self, g: Pairing, job: Job) -> None:
        """A game with a DXP seat in a thread of its own (its players are kept for the next
        games), any other in the process pool (made again when it broke)."""
        done, kept = self.done, self.kept
        seats = {job.white[1], job.black[1]} & self.dxp_seats
        if seats:
            for seat in seats:
                if seat not in kept:
                    kept[seat] = _dxp_player(seat)
            threading.Thread(target=lambda j=job: done.put(play_job(j, kept)), daemon=True).start()
            return
        try:
            future = self.pool.submit(play_job, job)
        except BrokenProcessPool:
            self.pool = self.tournament._pool()
            future = self.pool.submit(play_job, job)
        self.futures[g.number] = future
        future.add_done_callback(_into(done, g.number))

    def finish(self, finished: Finished) -> None:
        """A game finished: its entrants free again, its record and result kept (or, when
        its process died, said and left to the next start)."""
        t = self.tournament
        pairing = t.in_play.pop(finished.number).pairing
        self.futures.pop(finished.number, None)
        self.busy -= {pairing.white, pairing.black}
        if finished.error:
            self.failed.add(finished.number)
            t.said.append(
                _("game {n}: not played ({reason}); it is played at the next start").format(
                    n=finished.number, reason=finished.error[:200]
                )
            )
            return
        t._write(t.folder / "games" / f"{finished.number:04d}.pdn", finished.pdn)
        t.results[finished.number] = finished.score
        t.said.append(
            _("game {n}: {white} - {black} {result} ({why})").format(
                n=finished.number,
                white=t.names[pairing.white],
                black=t.names[pairing.black],
                result={1.0: "1-0", 0.0: "0-1"}.get(finished.score, "½-½"),
                why=finished.why,
            )
        )
        t.write_tables()

    def close(self) -> None:
        """The pool stopped, the DXP players let go, the tables written as they are."""
        _stop_pool(self.pool)
        for player in self.kept.values():
            with contextlib.suppress(Exception):
                player.disconnect()  # type: ignore[attr-defined]
        self.tournament.in_play.clear()
        with contextlib.suppress(OSError):
            self.tournament.write_tables()


def _into(done: queue.Queue[Finished], number: int) -> Callable[[Future[Finished]], None]:
    """The callback that hands a worker's game on to the event."""
    return lambda future: done.put(_result(future, number))


def _result(future: Future[Finished], number: int) -> Finished:
    try:
        return future.result()
    except BaseException as exc:  # (the worker process died: BrokenProcessPool)
        return Finished(number, error=f"{type(exc).__name__}: {exc}")


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """End the pool now: its waiting games dropped, its workers (and the engines they
    started, whose input then ends) stopped."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.kill()
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.join(timeout=5)


def _dxp_player(seat: str) -> object:
    from ..hub.dxp_player import DxpPlayer
    from ..session.seats import dxp_address

    address = dxp_address(seat[4:])
    assert address is not None
    return DxpPlayer(*address, keep_open=True)


def _who(text: str) -> object:
    """What makes an event file's games its own: its players, variant, format, rounds
    and openings (not its name, time or games at once)."""
    import tomllib

    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    keys = ("variant", "format", "rounds", "openings", "openings_count", "player")
    return {key: table.get(key) for key in keys}


def event_folder_games(folder: Path) -> int:
    """How many finished games ``folder`` holds (for a message)."""
    return len(list((folder / "games").glob("*.pdn"))) if (folder / "games").is_dir() else 0


__all__ = ["Finished", "Job", "Tournament", "event_folder_games", "play_job"]
