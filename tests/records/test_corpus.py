"""Every real game of the shared corpus that is of a variant shashki plays replays to its
last move with ``shashki check``; problem collections load their positions.

The corpus lives in ``../shared/corpora/pdn`` (never copied into the project); these
tests are skipped, with the reason, where it is absent.  The games that may fail are
listed with the reason in ``data/corpus.toml``: each is a record that is itself wrong.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from shashki.cli import main
from shashki.records import read_file
from shashki.rules import ShashkiError, find_variant

from ..conftest import SHARED, shared_path

DATA = tomllib.loads((Path(__file__).parent / "data" / "corpus.toml").read_text("utf-8"))
ROOT = SHARED / "corpora" / "pdn"
SUFFIXES = {".pdn", ".phn", ".json"}


def corpus_files() -> list[str]:
    if not ROOT.is_dir():
        return ["(corpus absent)"]
    return sorted(
        str(p.relative_to(ROOT))
        for p in ROOT.rglob("*")
        if p.is_file() and p.suffix.lower() in SUFFIXES
    )


def folder_variant(rel: str) -> str | None:
    """The variant of a corpus folder (pdn/<variant>/…), if shashki plays it."""
    folder = rel.split("/")[0]
    try:
        variant = find_variant(folder)
    except ShashkiError:
        return None
    # By id only: "antidraughts" is an alias of shashki's 8x8 giveaway, but the folder
    # holds lidraughts' 10x10 antidraughts (GameType 98).
    return variant.id if variant.id == folder else None


@pytest.mark.parametrize("rel", corpus_files())
def test_every_game_replays(rel: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = shared_path("corpora", "pdn", rel)
    variant = folder_variant(rel)
    if variant is None:
        pytest.skip(f"{rel}: {rel.split('/')[0]} is not a variant shashki plays")
    status = main(["check", "--json", "--variant", variant, str(path)])
    report = json.loads(capsys.readouterr().out)
    expected_count = DATA["games"].get(rel)
    if expected_count is not None:
        assert report["games"] == expected_count
    known = {(b["line"], b["move"]) for b in DATA["broken"] if b["file"] == rel}
    failing = {(g["line"], g["errors"][0]["move"]) for g in report["games_with_errors"]}
    assert failing == known, [
        (g["line"], g["errors"][0])
        for g in report["games_with_errors"]
        if (g["line"], g["errors"][0]["move"]) not in known
    ]
    assert status == (1 if known else 0)
    assert report["games_ok"] == report["games"] - len(known)


def test_broken_list_names_real_files() -> None:
    shared_path("corpora", "pdn")
    for broken in DATA["broken"]:
        assert (ROOT / broken["file"]).is_file(), broken["file"]
        assert broken["reason"].strip()


@pytest.mark.parametrize("rel", DATA["problems"]["files"])
def test_problem_collections_load_their_positions(rel: str) -> None:
    path = shared_path("corpora", "pdn", rel)
    variant = folder_variant(rel)
    games = list(read_file(path, variant))
    assert games
    for game in games:
        assert game.ok, (game.line, game.errors)
        assert game.fen is not None, game.line
        start = game.start()
        colours = {piece.color for piece in start.pieces().values()}
        assert len(colours) == 2, (game.line, game.fen)


def test_every_file_reads_without_raising() -> None:
    """Files of games shashki does not play (Italian, Czech, Frisian…) are read too:
    each game says why it cannot be replayed."""
    root = shared_path("corpora", "pdn")
    for path in sorted(p for p in root.rglob("*") if p.suffix.lower() in SUFFIXES):
        if folder_variant(str(path.relative_to(root))) is not None:
            continue  # replayed above
        for game in read_file(path):
            for error in game.errors:
                assert error.message


EDGE = "_parser_edge_cases/wiegerw-pdn"


def test_parser_edge_cases() -> None:
    def games(name: str, variant: str | None = None):  # type: ignore[no-untyped-def]
        return list(read_file(shared_path("corpora", "pdn", EDGE, name), variant))

    [g] = games("succeed/alphanumeric.pdn", "russian")
    assert g.ok and len(g.mainline_moves()) == 1
    fens = games("succeed/fen.pdn")
    assert len(fens) == 3 and all(g.ok for g in fens)
    assert fens[2].fen is None  # "W:W31-50:B1-20" is the start
    [g] = games("succeed/gameterminator.pdn")
    assert g.ok and g.result == "1/2-1/2"
    [g] = games("succeed/linecomment.pdn")
    assert g.ok and g.headers == {"Date": "2012.02.01"} and len(g.mainline_moves()) == 2
    [g] = games("succeed/movestrength.pdn")
    assert g.ok and g.next().nags == [5] and len(g.mainline_moves()) == 3
    [g] = games("succeed/string.pdn")
    assert g.ok and g.headers["White"].endswith('"')
    [g] = games("succeed/unicode.pdn")
    assert g.ok and g.headers["White"] == "Сергей Фадеев" and g.headers["Black"] == "高文龙"
    [g] = games("succeed/variation.pdn")
    assert g.ok and len(g.mainline_moves()) == 4 and len(list(g.nodes())) == 9
    # The PDN standard rejects nested comments; read as python-chess would, the stray
    # "}" becomes part of a comment, with a warning, and the moves are all there.
    [g] = games("fail/nested_comment.pdn")
    assert g.ok and g.warnings and len(g.mainline_moves()) == 3
