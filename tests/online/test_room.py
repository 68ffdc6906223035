"""The room an online game's autosave keeps (``ShashkiOnline``): written for the host
and the guest, read back strictly; a tag a hostile file wrote names nothing that can be
used, and never a program, a path or a wider network."""

from __future__ import annotations

import pytest

from shashki.online.room import Room, plain_code, read_room, resumed_session
from shashki.records import read_games_text
from shashki.rules import Color, Game, find_variant
from shashki.session import UndoPolicy


def test_a_hosts_room_and_a_guests_way_back_are_read_as_written() -> None:
    host = Room(True, "K7WQ-M2", Color.BLACK, False, port=8765, mode="local")
    assert host.tag() == "host K7WQ-M2 8765 local black off"
    assert read_room(host.tag()) == host
    guest = Room(False, "K7WQ-M2", Color.WHITE, True, address="192.168.1.20:8765")
    assert guest.tag() == "join 192.168.1.20:8765 K7WQ-M2 white on"
    assert read_room(guest.tag()) == guest
    v6 = read_room("join [::1]:8765 K7WQM2 black on")
    assert v6 is not None and v6.address == "[::1]:8765" and v6.code == "K7WQ-M2"


def test_a_code_is_kept_as_one_word_however_it_was_typed() -> None:
    assert plain_code(" k7wq m2 ") == "K7WQ-M2"
    assert plain_code("K7WQ-M2") == "K7WQ-M2"


@pytest.mark.parametrize(
    "tag",
    [
        "",
        "host",
        "host K7WQ-M2 8765 lan white",  # a word missing
        "host K7WQ-M2 8765 lan white on extra",
        "host K7WQ-M0 8765 lan white on",  # 0: not a letter of the code alphabet
        "host K7WQ-M22 8765 lan white on",  # seven letters
        "host K7WQ-M2 0 lan white on",
        "host K7WQ-M2 65536 lan white on",
        "host K7WQ-M2 ８７６５ lan white on",  # digits of another script
        "host K7WQ-M2 -1 lan white on",
        "host K7WQ-M2 8765 everywhere white on",
        "host K7WQ-M2 8765 lan red on",
        "host K7WQ-M2 8765 lan white maybe",
        "join 192.168.1.20 K7WQ-M2 white on",  # no port
        "join 192.168.1.20:99999 K7WQ-M2 white on",
        "join $(rm${IFS}-rf):80 K7WQ-M2 white on",
        "join a;b:80 K7WQ-M2 white on",
        "join \x1b[2J:80 K7WQ-M2 white on",
        "join /etc/passwd:80 K7WQ-M2 white on",
        "run sh -c 'id' white on",
        "hub:sh K7WQ-M2 8765 lan white on",
    ],
)
def test_a_tag_that_cannot_be_read_names_no_room(tag: str) -> None:
    assert read_room(tag) is None


def test_a_resumed_session_is_the_autosaved_game_with_its_clock_and_players() -> None:
    text = (
        '[Event "shashki online game"]\n[Site "online 127.0.0.1:8765"]\n'
        '[Date "2026.12.01"]\n[Round "-"]\n[White "Anna"]\n[Black "Boris"]\n'
        '[BlackType "program"]\n[Result "*"]\n[GameType "25"]\n[TimeControl "300+3"]\n'
        '[ShashkiOnline "host K7WQ-M2 8765 lan white off"]\n\n'
        "1. c3-d4 {[%clk 0:04:50]} f6-g5 {[%clk 0:04:40]} *\n"
    )
    record = next(iter(read_games_text(text)))
    game = record.end().replay()
    room = read_room(record.header("ShashkiOnline"))
    assert room is not None
    session, remote = resumed_session(record, game, room)
    assert [p.name for p in session.players] == ["Anna", "Boris"]
    assert session.players[1] is remote and remote.program
    assert session.undo_policy is UndoPolicy.OFF
    assert session.clock is not None
    assert session.clock.left(Color.WHITE) == pytest.approx(290.0)
    assert session.clock.left(Color.BLACK) == pytest.approx(280.0)
    headers = session.headers()
    assert headers["Date"] == "2026.12.01" and headers["Site"] == "online 127.0.0.1:8765"
    # the room goes back into the autosave, never into the record
    assert session.resume_tags == {"ShashkiOnline": room.tag()}
    assert "ShashkiOnline" not in headers
    assert "ShashkiOnline" not in session.record().headers


def test_names_from_the_file_are_cleaned() -> None:
    text = (
        '[White "Anna\x1b]0;owned\x07"]\n[Black "Bo\nris"]\n[Result "*"]\n[GameType "25"]\n\n'
        "1. c3-d4 *\n"
    )
    record = next(iter(read_games_text(text)))
    room = Room(True, "K7WQ-M2", Color.WHITE, True, port=8765)
    session, _remote = resumed_session(record, record.end().replay(), room)
    for player in session.players:
        assert all(c.isprintable() for c in player.name), player.name


def test_a_game_left_is_said_and_read_back_as_such() -> None:
    from shashki.records.ending import record_outcome
    from shashki.rules.outcome import Termination

    game = Game(find_variant("russian"))
    game.push(game.parse_move("c3-d4"))
    out = game.abandon(Color.BLACK)
    assert out.termination is Termination.ABANDONED and out.winner is Color.WHITE
    said = out.describe(game.variant.side_names)
    assert said == "White wins: Black left the game."
    text = f'[GameType "25"]\n[Result "1-0"]\n[Termination "{said}"]\n\n1. c3-d4 1-0\n'
    record = next(iter(read_games_text(text)))
    back = record_outcome(record, record.end().replay())
    assert back is not None and back.termination is Termination.ABANDONED
    assert back.winner is Color.WHITE
    # PDN's own word for it
    text = text.replace(said, "abandoned")
    record = next(iter(read_games_text(text)))
    back = record_outcome(record, record.end().replay())
    assert back is not None and back.termination is Termination.ABANDONED
