"""The recorder: a game saved as it goes, the same way whatever drives it.

A :class:`Recorder` subscribes to a :class:`~shashki.session.GameSession` and keeps
what the front end gave it up to date — the app, ``shashki host``/``join --auto`` and
``shashki match --pdn`` alike; a front end only chooses where:

- an **autosave slot** (:class:`~shashki.store.autosaves.AutosaveSlot`): after every
  change the newest state is queued to the :class:`~shashki.session.autosave.AutosaveWriter`
  (written on its own thread: the game never waits for the disk); once the game is over
  (or taken back to no moves) the file goes, a finished game kept in My games first
  (``keep``); an unfinished game's file stays for the next start when the program
  ends, however it ends (``kill -9`` too: the state after the last move is on disk);
- a **game log** (:class:`~shashki.store.storage.GameLog`, the PDN file of a match or
  of ``shashki dxp``): the record appended once, as the game ends (``log_unfinished``:
  or as it is left unfinished).

It reads the session on the session's own thread (its events come there) and hands the
writer copies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .autosave import AutosaveWriter
from .game import Abandoned, Changed, Event, GameEnded, GameSession, Retagged

if TYPE_CHECKING:
    from ..records import GameRecord
    from ..store.autosaves import AutosaveSlot
    from ..store.storage import GameLog


class Recorder:
    """Saves one game of ``session`` as it goes (see the module)."""

    def __init__(
        self,
        session: GameSession,
        *,
        writer: AutosaveWriter | None = None,
        slot: AutosaveSlot | None = None,
        keep: bool = True,
        log: GameLog | None = None,
        on_log_failure: Callable[[str], None] | None = None,
        log_unfinished: bool = False,
    ) -> None:
        if slot is not None and writer is None:
            raise ValueError("an autosave slot needs the writer that writes it")
        self.session = session
        self.writer = writer
        #: The game's autosave (None: not autosaved).
        self.slot = slot
        #: Whether a finished game is kept in My games.
        self.keep = keep
        #: The file the record is appended to as the game ends (a match's ``--pdn``).
        self.log = log
        self.on_log_failure = on_log_failure
        #: Whether a game left unfinished (:meth:`close`) is appended to the log too, as
        #: far as it went (result ``*``): a server's log keeps every game it was given.
        self.log_unfinished = log_unfinished
        #: The end last kept (plies, result, termination): kept once.
        self._kept: tuple[int, str] | None = None
        self._logged = False
        self._unsubscribe: Callable[[], None] | None = session.subscribe(self._event)

    def _event(self, event: Event) -> None:
        if isinstance(event, (Changed, Retagged)):
            self.save()
        if isinstance(event, GameEnded):
            self._append()
        if isinstance(event, Abandoned):
            self._abandoned()

    def _abandoned(self) -> None:
        """The game was left unfinished for good: kept in My games as that (result
        ``*``, ``Termination`` abandoned), its autosave removed (nothing to resume), and
        nothing more saved; a log gets it as far as it went."""
        if self.log is not None:
            self._append()
        keep = None
        if self.keep:
            from ..store.archive import abandoned_for_archive

            keep = abandoned_for_archive(self.session.record())
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        slot, writer = self.slot, self.writer
        self.slot = None
        if slot is not None and writer is not None:
            writer.queue(slot, remove=True, keep=keep, release=True)
            writer.start()

    def save(self) -> None:
        """Queue the game's newest state for its autosave (at once: the game just
        opened)."""
        slot, writer = self.slot, self.writer
        if slot is None or writer is None:
            return
        session = self.session
        if session.outcome is not None or not session.game.move_stack:
            # over (or taken back to no moves): nothing to resume; a finished game is
            # kept in My games first
            writer.queue(slot, remove=True, keep=self._finished())
        else:
            writer.queue(
                slot,
                write=(
                    session.game.copy(),
                    session.autosave_tags(),
                    list(session.clock_marks) if session.clock is not None else [],
                ),
            )
        writer.start()

    def _finished(self) -> GameRecord | None:
        """The record to keep in My games when the game has just ended (None: not
        ended, no move played, not kept, or this very end kept already)."""
        session = self.session
        outcome = session.outcome
        plies = len(session.game.move_stack)
        if not self.keep or outcome is None or not plies:
            return None
        state = (plies, outcome.result() + outcome.termination.value)
        if self._kept == state:
            return None
        self._kept = state
        from ..store.archive import for_archive

        return for_archive(session.record(), outcome)

    def _append(self) -> None:
        """The game ended: its record appended to the log (once)."""
        log = self.log
        if log is None or self._logged:
            return
        self._logged = True
        from ..store.storage import SaveError

        try:
            log.add(self.session.record())
        except SaveError as exc:
            self.log = None
            if self.on_log_failure is not None:
                self.on_log_failure(str(exc))

    def forget(self) -> None:
        """The game goes on elsewhere (an online game joined again from another
        program): its autosave is removed and given up, and nothing more is saved here."""
        self._stop(remove=True)

    def close(self) -> None:
        """The game is left: no more saving; its autosave is given up once its last
        state is written (the file stays, for later); with ``log_unfinished``, a game
        with moves not yet in the log is appended to it as far as it went."""
        if self.log_unfinished and self.session.game.move_stack:
            self._append()
        self._stop(remove=False)

    def _stop(self, *, remove: bool) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        slot, writer = self.slot, self.writer
        self.slot = None
        if slot is not None and writer is not None:
            writer.queue(slot, remove=remove, release=True)
            writer.start()


__all__ = ["Recorder"]
