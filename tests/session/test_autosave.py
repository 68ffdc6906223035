"""The autosave writer: one worker thread, only the newest state of each game written,
a failure said once, and a flush that waits on the work itself (``Future.result``)."""

from __future__ import annotations

import threading
from pathlib import Path

from shashki.records.reader import read_file
from shashki.rules import Game
from shashki.session.autosave import AutosaveWriter
from shashki.store import AutosaveSlot


class SlowSlot:
    """A slot whose writing waits until it is let go, and counts what it wrote."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.writing = threading.Event()
        self.written: list[int] = []
        self.threads: set[str] = set()
        self.released = False

    def save(self, game: Game, headers: dict[str, str], marks: list[float | None]) -> None:
        self.threads.add(threading.current_thread().name)
        self.writing.set()
        self.go.wait(300)  # (set by the test; the bound only ends a thread a failed test left)
        self.written.append(len(game.move_stack))

    def remove(self) -> None:
        self.written.append(-1)

    def release(self) -> None:
        self.released = True


class BrokenSlot(SlowSlot):
    def save(self, game: Game, headers: dict[str, str], marks: list[float | None]) -> None:
        raise OSError("No space left\non device")


def state(plies: int) -> tuple[Game, dict[str, str], list[float | None]]:
    game = Game("russian")
    for _ in range(plies):
        game.push(game.legal_moves()[0])
    return game, {}, []


def test_only_the_newest_state_waits_and_flush_waits_for_it() -> None:
    writer = AutosaveWriter()
    slot = SlowSlot()
    writer.queue(slot, write=state(1))  # type: ignore[arg-type]
    writer.start()
    assert slot.writing.wait(120)  # the first state is being written
    for plies in (2, 3, 4):  # meanwhile three more states: only the last one waits
        writer.queue(slot, write=state(plies))  # type: ignore[arg-type]
    assert writer.flush(timeout=0.05) is False  # still writing: the flush gives up in time
    slot.go.set()
    assert writer.flush(timeout=120) is True
    assert slot.written == [1, 4] and not writer.pending()
    assert len(slot.threads) == 1 and next(iter(slot.threads)).startswith("shashki-autosave")
    writer.queue(slot, remove=True, release=True)  # type: ignore[arg-type]
    assert writer.flush(timeout=120) and slot.written == [1, 4, -1] and slot.released


def test_a_failure_is_said_once_in_one_line() -> None:
    said: list[str] = []
    writer = AutosaveWriter(on_failure=said.append)
    slot = BrokenSlot()
    for plies in (1, 2):
        writer.queue(slot, write=state(plies))  # type: ignore[arg-type]
        assert writer.flush(timeout=120)
    assert said == ["No space left on device"] and writer.problem == "No space left on device"


def test_a_real_autosave_is_written(tmp_path: Path) -> None:
    writer = AutosaveWriter()
    slot = AutosaveSlot.new(tmp_path)
    try:
        game, _, _ = state(3)
        writer.queue(slot, write=(game, {"White": "Anna"}, []))
        assert writer.flush(timeout=120)
        (record,) = list(read_file(slot.path))
        assert record.header("White") == "Anna" and len(record.mainline_moves()) == 3
    finally:
        writer.queue(slot, release=True)
        writer.flush(timeout=120)
