"""The variant files of issue 3 and composing games from a host and modifiers: the
shipped files name the right host, engine and modifiers; a user's own file (given by
path, or in the per-user folder) composes a host with modifiers and plays; a broken file
is refused with a VariantFileError that says what is wrong.

Tests that load user files work on a fresh registry (``fresh``), so the shared one that
the other tests see keeps only the built-in variants.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from shashki.cli import main
from shashki.rules import (
    Color,
    Game,
    Termination,
    VariantFileError,
    find_variant,
    load_variant_file,
    variant_registry,
)
from shashki.rules.game import game_state
from shashki.rules.switches import NoMoves

from ..conftest import mv, paths

# id: (host, engine, modifiers)
ISSUE_3 = {
    "turkish": ("", "standard", ()),
    "tama": ("", "standard", ()),
    "tama-armenian": ("", "standard", ()),
    "wolf-sheep": ("", "standard", ()),
    "bashni": ("russian", "bashni", ()),
    "artamonov": ("traditional", "artamonov", ()),
    "diagonal": ("traditional", "standard", ()),
    "giveaway": ("traditional", "standard", ("giveaway",)),
    "giveaway-russian": ("russian", "standard", ("giveaway",)),
    "self-capture": ("traditional", "standard", ("self-capture",)),
    "demotion": ("traditional", "standard", ("demotion",)),
    "move-opponent": ("traditional", "standard", ("move-opponent",)),
    "double-move": ("traditional", "standard", ("double-move",)),
}


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A registry of its own for this test, with an empty per-user folder; returns the
    user folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(variant_registry, "_REGISTRY", None)
    folder = tmp_path / "data" / "shashki" / "variants"
    folder.mkdir(parents=True)
    return folder


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


# -- the shipped files ---------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(ISSUE_3))
def test_shipped_file_names_host_engine_and_modifiers(variant: str) -> None:
    v = find_variant(variant)
    assert (v.host, v.family, v.modifiers) == ISSUE_3[variant]
    assert v.card and v.summary and v.name


@pytest.mark.parametrize(
    "variant", ["diagonal", "self-capture", "demotion", "move-opponent", "double-move", "bashni"]
)
def test_a_modified_game_keeps_its_hosts_rule_switches(variant: str) -> None:
    v = find_variant(variant)
    assert v.rules == find_variant(v.host).rules
    assert v.board is find_variant(v.host).board


@pytest.mark.parametrize("variant", ["giveaway", "giveaway-russian"])
def test_giveaway_changes_one_switch(variant: str) -> None:
    v = find_variant(variant)
    host = find_variant(v.host)
    assert v.rules.no_moves is NoMoves.WINS and host.rules.no_moves is NoMoves.LOSES
    assert replace(v.rules, no_moves=NoMoves.LOSES) == host.rules


def test_variants_that_inherit_the_hosts_draws() -> None:
    for variant in ("diagonal", "self-capture", "demotion", "move-opponent", "double-move"):
        assert find_variant(variant).draws == find_variant("traditional").draws, variant
    # and those that replace them
    assert [d.name for d in find_variant("bashni").draws] == [
        "the same position occurred three times with the same player to move",
        "15 moves by each player without a capture or a promotion",
    ]
    assert find_variant("artamonov").draws == ()


@pytest.mark.parametrize("variant", list(ISSUE_3))
def test_perft_and_rules_on_the_command_line(
    variant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["perft", variant, "2"]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == str(Game(variant).perft(2))
    assert main(["rules", variant]) == 0
    assert find_variant(variant).name in capsys.readouterr().out


# -- a user's own files ----------------------------------------------------------------------

DOUBLE_BRAZILIAN = """
id = "double-move-brazilian"
name = "Double-move Brazilian draughts"
host = "brazilian"
modifiers = ["double-move"]
"""

GIVEAWAY_TURKISH = """
id = "giveaway-turkish"
name = "Turkish giveaway"
host = "turkish"
modifiers = ["giveaway"]

[[draws]]
kind = "repetition"
count = 3
name = "threefold"
"""


def test_double_move_brazilian_from_a_path(fresh: Path, tmp_path: Path) -> None:
    path = write(tmp_path, "mine", DOUBLE_BRAZILIAN)
    v = variant_registry.add_variant_file(path)
    assert find_variant("double-move-brazilian") is v
    assert v.modifiers == ("double-move",) and v.rules == find_variant("brazilian").rules
    game = Game("double-move-brazilian")
    game.push(mv(v.id, "c3", "d4"))
    assert game.turn is Color.WHITE
    game.push(mv(v.id, "d4", "c5"))
    assert game.turn is Color.BLACK
    # Black must take c5 (b6xd4 or d6xb4) and may then move again
    assert paths(game) == {"b6-d4", "d6-b4"}
    assert Game(v).perft(2) == 56 == Game("double-move").perft(2)


def test_giveaway_turkish_from_the_user_folder(fresh: Path) -> None:
    write(fresh, "giveaway-turkish", GIVEAWAY_TURKISH)
    v = find_variant("giveaway-turkish")
    assert v.group == "orthogonal" and v.host == "turkish"
    assert [Game(v).perft(d) for d in (1, 2, 3)] == [8, 64, 708]
    # blocked: the white man on a7 cannot move, and in giveaway that wins
    outcome = Game(v, "W:Wa7:Ba8,b7,c7,h1").outcome()
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is Color.WHITE
    # its own draw rules replace Turkish's: one piece against one piece plays on
    assert Game(v, "W:WKa1:BKh7").outcome() is None


def test_a_file_built_on_a_modified_game_adds_its_modifiers(fresh: Path) -> None:
    write(
        fresh,
        "double-giveaway",
        'id = "double-giveaway"\nname = "x"\nhost = "giveaway"\nmodifiers = ["double-move"]\n',
    )
    v = find_variant("double-giveaway")
    assert v.modifiers == ("giveaway", "double-move")
    assert v.rules.no_moves is NoMoves.WINS
    assert Game(v).perft(2) == 56


def test_a_broken_user_file_is_reported_not_fatal(fresh: Path) -> None:
    write(fresh, "broken", 'id = "broken"\nname = "x"\nhost = "chess"\n')
    write(fresh, "good", DOUBLE_BRAZILIAN)
    reg = variant_registry.registry()
    assert any("chess" in e and "broken.toml" in e for e in reg.errors)
    assert find_variant("double-move-brazilian").host == "brazilian"


def test_the_command_line_loads_a_variant_file(
    fresh: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "mine", DOUBLE_BRAZILIAN)
    assert main(["--variant-file", str(path), "perft", "double-move-brazilian", "2"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "56"


# -- broken files ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('id = "x"\nname = "x"\nhost = "traditional"\ncolour = "red"\n', "unknown key(s) colour"),
        ('id = "x"\nname = "x"\nhost = "traditional"\n[rules]\nflying_men = true\n', "flying_men"),
        (
            'id = "x"\nname = "x"\nhost = "traditional"\nmodifiers = ["triple-move"]\n',
            "unknown modifier 'triple-move'",
        ),
        ('id = "x"\nname = "x"\nhost = "chess"\n', "host variant 'chess' is not known"),
        ('id = "x"\nname = "x"\nhost = "traditional"\nengine = "hex"\n', "unknown generator 'hex'"),
        (
            'id = "x"\nname = "x"\nhost = "traditional"\ngenerator = "hex"\n',
            "unknown generator 'hex'",
        ),
        (
            'id = "x"\nname = "x"\nhost = "bashni"\nmodifiers = ["self-capture"]\n',
            "cannot be applied to the 'bashni' generator",
        ),
        (
            'id = "x"\nname = "x"\nhost = "artamonov"\nmodifiers = ["double-move"]\n',
            "cannot be applied to the 'artamonov' generator",
        ),
        (
            'id = "x"\nname = "x"\nhost = "wolf-sheep"\n[board]\n'
            'start_options = [{ label = "z9", start = "W:WKz9:Bb8" }]\n',
            "start option 'z9'",
        ),
        (
            'id = "x"\nname = "x"\nhost = "wolf-sheep"\n[board]\n'
            'start_options = [{ label = "a1" }]\n',
            "missing key [board] start_options #1 start",
        ),
        (
            'id = "x"\nname = "x"\nhost = "wolf-sheep"\n[[goals]]\nside = "wolf"\nrank = 8\n',
            "side must be",
        ),
        (
            'id = "x"\nname = "x"\nhost = "wolf-sheep"\n[[goals]]\nside = "white"\nrank = 9\n',
            "rank must be",
        ),
    ],
)
def test_bad_files_say_what_is_wrong(tmp_path: Path, text: str, words: str) -> None:
    path = write(tmp_path, "bad", text)
    with pytest.raises(VariantFileError) as info:
        load_variant_file(path)
    message = str(info.value)
    assert words in message and str(path) in message, message


def test_a_host_loop_is_refused(tmp_path: Path) -> None:
    hosts = {
        "a": {"id": "a", "name": "a", "host": "b"},
        "b": {"id": "b", "name": "b", "host": "a"},
    }
    path = write(tmp_path, "c", 'id = "c"\nname = "c"\nhost = "a"\n')
    with pytest.raises(VariantFileError, match="host chain loops"):
        load_variant_file(path, hosts)
    path = write(tmp_path, "self", 'id = "self"\nname = "self"\nhost = "self"\n')
    with pytest.raises(VariantFileError, match="loops"):
        load_variant_file(path, {"self": {"id": "self", "name": "self", "host": "self"}})


def test_a_host_loop_between_user_files_is_reported(fresh: Path) -> None:
    write(fresh, "ping", 'id = "ping"\nname = "ping"\nhost = "pong"\n')
    write(fresh, "pong", 'id = "pong"\nname = "pong"\nhost = "ping"\n')
    reg = variant_registry.registry()
    assert len([e for e in reg.errors if "loops" in e]) == 2
    assert "ping" not in [v.id for v in reg]


def test_double_move_bashni(tmp_path: Path) -> None:
    # the double-move modifier on the column engine: each half-turn is a Bashni move
    from .test_modifiers import double_move_perft

    v = load_variant_file(
        write(
            tmp_path,
            "double-bashni",
            'id = "double-bashni"\nname = "x"\nhost = "bashni"\nmodifiers = ["double-move"]\n',
        )
    )
    bashni = find_variant("bashni").generator

    def children(pos):  # type: ignore[no-untyped-def]
        return [bashni.apply(pos, m) for m in bashni.moves(pos)]

    start = game_state(Game("bashni"))
    assert [Game(v).perft(d) for d in (1, 2, 3)] == [
        double_move_perft(start, False, d, children) for d in (1, 2, 3)
    ]
    # the first half-turn sets up a capture that the second must make
    game = Game(v, "W:Wc3,a1:Be5,h8")
    game.push(mv("bashni", "c3", "d4"))
    assert game.turn is Color.WHITE
    assert paths(game) == {"d4-f6"}
    game.push(game.legal_moves()[0])
    assert game.variant.generator.stack(game_state(game), v.board.parse_square("f6")) == "bw"  # type: ignore[attr-defined]
    assert game.fen() == "B:Wf6=bw,a1:Bh8:H0:F2"


def test_a_derived_variant_shares_the_gametype_but_is_not_its_meaning(fresh: Path) -> None:
    write(
        fresh,
        "double-russian",
        'id = "double-russian"\nname = "x"\nhost = "russian"\nmodifiers = ["double-move"]\n',
    )
    for variant in ("giveaway-russian", "bashni", "double-russian"):
        assert not find_variant(variant).gametype_primary, variant
    assert find_variant("giveaway-russian").gametype == find_variant("russian").gametype
    assert find_variant("25").id == "russian"
    assert find_variant("26").id == "brazilian"


def test_the_old_key_engine_still_names_the_generator_family(tmp_path: Path) -> None:
    # variant files written before the key was called "generator" keep working
    path = tmp_path / "columns.toml"
    path.write_text('id = "columns"\nname = "Columns"\nhost = "russian"\nengine = "bashni"\n')
    assert load_variant_file(path).family == "bashni"
    path.write_text('id = "columns"\nname = "Columns"\nhost = "bashni"\n')
    assert load_variant_file(path).family == "bashni"  # inherited under the new key
