"""The variant of games that name none, guessed from their squares and moves
(``records/guess.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from shashki.cli import main
from shashki.records.guess import guess_text, guess_variant
from shashki.rules import ShashkiError, find_variant

from ..conftest import shared_path

RUSSIAN = "1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. c3-b4 g7-f6 *\n"
ENGLISH = "1. 11-15 23-19 2. 8-11 22-17 *\n"
# White moves first from 21-32: no legal first move in English draughts (Black first),
# so the moves say Italian draughts, the next 32-square numbered variant.
ITALIAN = "1. 23-19 12-15 2. 19x12 8x15 3. 28-23 10-14 *\n"
INTERNATIONAL = "1. 32-28 19-23 2. 28x19 14x23 *\n"


def test_algebraic_squares_of_an_8x8_board_are_read_as_russian() -> None:
    guess = guess_text(RUSSIAN + "\n" + RUSSIAN)
    assert guess is not None
    assert guess.variant.id == "russian"
    assert (guess.notation, guess.highest, guess.sampled, guess.replayed) == (
        "algebraic",
        "h7",
        2,
        2,
    )
    assert "h7" in guess.describe() and "2 of the first 2 games replay" in guess.describe()


def test_numbers_up_to_32_are_english_unless_the_moves_say_otherwise() -> None:
    english = guess_text(ENGLISH)
    assert english is not None and english.variant.id == "english"
    assert english.highest == "23"
    italian = guess_text(ITALIAN)
    assert italian is not None and italian.variant.id == "italian"
    assert italian.tried[0] == "english"  # tried first, refused by the moves


def test_numbers_up_to_50_are_international() -> None:
    guess = guess_text(INTERNATIONAL)
    assert guess is not None and guess.variant.id == "international"
    assert guess.highest == "32"  # the 32 of a 50-square game: 10x10 fits, 8x8 does not replay
    assert guess_text("1. 33-28 18-23 2. 39-33 12-18 *").variant.id == "international"  # type: ignore[union-attr]


def test_squares_in_letters_of_a_10x10_board_go_to_a_numbered_variant() -> None:
    # no variant writes 10×10 squares in letters: those whose board has them are tried
    guess = guess_text("1. j4-i5 i7-j6 2. d4-e5 *")  # 35-30 20-25 32-28
    assert guess is not None and guess.variant.board.width == 10
    assert guess.variant.id == "international" and guess.replayed == 1


def test_a_fen_without_moves_tells_the_board() -> None:
    guess = guess_text('[FEN "B:W21,K5:BK17,K14"]\n1-0\n')
    assert guess is not None and guess.variant.board.square_count == 32
    assert guess.notation == "numeric" and guess.highest == "21"


def test_the_candidates_come_from_the_registry() -> None:
    # every variant tried has a board with the squares used and the notation of the moves
    guess = guess_text(RUSSIAN)
    assert guess is not None
    for vid in guess.tried:
        variant = find_variant(vid)
        assert variant.notation == "algebraic"
        variant.board.parse_square("c3", numeric=False)


def test_no_guess_when_the_games_name_their_variant() -> None:
    assert guess_text('[GameType "25"]\n' + RUSSIAN) is None
    assert guess_text('[Variant "russian"]\n' + RUSSIAN) is None
    assert guess_text("") is None


def test_no_guess_when_no_board_has_the_squares() -> None:
    assert guess_text("1. z9-z8 *") is None


def test_tags_still_win_over_the_guess(tmp_path: Path) -> None:
    from shashki.records import read_file

    path = tmp_path / "mixed.pdn"
    path.write_text(RUSSIAN + '\n[GameType "20"]\n' + INTERNATIONAL)
    guess = guess_variant(path)
    assert guess is not None and guess.variant.id == "russian"
    games = list(read_file(path, guess.variant))
    assert [g.variant.id for g in games] == ["russian", "international"]  # type: ignore[union-attr]
    assert all(g.ok for g in games)


def test_check_says_the_guess_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "untagged.pdn"
    path.write_text(RUSSIAN + "\n" + RUSSIAN)
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        f"{path}: games without a GameType are read as Russian draughts, guessed from their "
        "moves and positions (squares in letters up to h7; 2 of the first 2 "
        "games replay)"
    )
    assert out[1] == "1 file, 2 games, 12 half-moves: 2 ok, 0 with errors"
    # a variant given is used as it is, without a guess
    assert main(["check", "--variant", "international", str(path)]) == 1
    assert "read as" not in capsys.readouterr().out


def test_check_json_says_the_guess(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    path = tmp_path / "untagged.pdn"
    path.write_text(ITALIAN)
    assert main(["check", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["guessed"] == [
        {"file": str(path), "variant": "italian", "evidence": report["guessed"][0]["evidence"]}
    ]
    assert report["games_ok"] == 1


# -- the real archives: the folder names the variant the guess must find ----------------


@pytest.mark.parametrize(
    ("rel", "variant", "games"),
    [
        ("russian/wiegerw-pdn/ussr1947.pdn", "russian", 153),
        ("italian/mig0-Games-Checkers/partite.pdn", "italian", 219),
        ("italian/mig0-Games-Checkers/40champ-1996.pdn", "italian", 302),
        ("english/wiegerw-pdn/inferno.pdn", "english", 68),
        ("czech/wiegerw-pdn/mrcd2006.pdn", "czech", 44),
    ],
)
def test_real_untagged_archives(rel: str, variant: str, games: int) -> None:
    from shashki.records import read_file

    path = shared_path("corpora", "pdn", *rel.split("/"))
    guess = guess_variant(path)
    assert guess is not None and guess.variant.id == variant
    records = list(read_file(path, guess.variant))
    # before the guess every one of these games was read as International and failed
    assert len(records) == games and all(r.ok for r in records)


def test_every_corpus_guess_is_its_folder() -> None:
    root = shared_path("corpora", "pdn")
    guessed = 0
    for path in sorted(root.rglob("*")):
        if path.suffix.lower() not in {".pdn", ".json"} or "_parser" in str(path):
            continue
        guess = guess_variant(path)
        if guess is None:
            continue
        try:
            folder = find_variant(path.relative_to(root).parts[0]).id
        except ShashkiError:
            continue
        guessed += 1
        assert guess.variant.id == folder, (path, guess)
    assert guessed >= 10


def test_only_the_start_of_a_file_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from shashki.records import guess

    # a sample of about 300 characters: the games after it are never read (the broken
    # one at the end would otherwise count against Russian draughts)
    monkeypatch.setattr(guess, "SAMPLE_CHARS", 300)
    path = tmp_path / "big.pdn"
    path.write_text((RUSSIAN + "\n") * 20 + "1. a1-b2 *\n", encoding="utf-8")
    result = guess_variant(path)
    assert result is not None and result.variant.id == "russian"
    assert result.sampled == result.replayed and result.sampled < 20


def test_json_items_are_games_of_their_own(tmp_path: Path) -> None:
    import json

    path = tmp_path / "games.json"
    path.write_text(json.dumps([ENGLISH.replace(" *", ""), ENGLISH.replace(" *", "")]))
    result = guess_variant(path)
    assert result is not None and result.variant.id == "english"
    assert (result.sampled, result.replayed) == (2, 2)


def test_a_file_that_is_no_text_gives_no_guess(tmp_path: Path) -> None:
    path = tmp_path / "binary.pdn"
    path.write_bytes(b"\x00\x01\x02" * 100)
    assert guess_variant(path) is None
    with pytest.raises(OSError):
        guess_variant(tmp_path / "missing.pdn")
    with pytest.raises(OSError):
        guess_variant(tmp_path)  # a folder
