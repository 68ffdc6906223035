"""Hostile variant files (issue 11).

In the user's folder a bad file (bytes that are not UTF-8, UTF-16 without BOM, nesting
50,000 deep, a key of the wrong type, an integer of 5,000 digits, a huge width, a FIFO, a
device) is skipped with one line naming the file and the key, and every command still
works; the same file given with ``--variant-file`` is one line on stderr and exit status
2.  Variant files in UTF-8 (with or without BOM) and UTF-16/32 with BOM are read.  A
user's file never takes over a built-in id, alias, name or GameType, and an id never
reaches a file path unchecked.

Tests that load user files work on a fresh registry (``fresh``).
"""

from __future__ import annotations

import codecs
import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shashki.cli import main
from shashki.rules import (
    Game,
    UnknownVariantError,
    VariantFileError,
    find_variant,
    variant_file,
    variant_registry,
)
from shashki.rules.variant import Variant, is_valid_id
from shashki.rules.variant_file import (
    MAX_KEY_PARTS,
    MAX_NESTING,
    _toml_shape_error,
    read_variant_file,
)
from shashki.rules.variant_registry import builtin_variant_dir, load_variant_file, registry

#: The built-in variants: one file each in the package's folder.
BUILTINS = len(list(builtin_variant_dir().glob("*.toml")))

GOOD = 'id = "double-brazilian"\nname = "Double-move Brazilian"\nhost = "brazilian"\n'
GOOD += 'modifiers = ["double-move"]\n'
BASE = 'name = "x"\nhost = "russian"\n'

#: file name: (bytes, words the warning must hold besides the file's name)
HOSTILE: dict[str, tuple[bytes, str]] = {
    "latin1": ('id = "latin"\nname = "café"\n'.encode("latin-1"), "not valid UTF-8"),
    "utf16-no-bom": (
        ('id = "u16"\n' + BASE).encode("utf-16-le"),
        "NUL characters (UTF-16 or UTF-32 without a byte-order mark?)",
    ),
    "utf16-broken": (codecs.BOM_UTF16_LE + b"\x00\xd8", "not valid UTF-16"),
    "deep": (b"x = " + b"[" * 50_000 + b"]" * 50_000 + b"\n", "nested more than"),
    "deep-tables": (b"x = " + b"{a=" * 50_000 + b"1" + b"}" * 50_000, "nested more than"),
    "dotted": (b"a" + b".a" * 50_000 + b" = 1\n", "dotted key of more than"),
    "dotted-header": (b"[" + b"a." * 50_000 + b"a]\n", "dotted key of more than"),
    "name5": (
        b'id = "name5"\nname = 5\nhost = "russian"\n',
        "name must be a string, not an integer",
    ),
    "board3": (
        b'id = "board3"\nboard = 3\n' + BASE.encode(),
        "board must be a table, not an integer",
    ),
    "rulesx": (b'id = "rulesx"\nrules = "x"\n' + BASE.encode(), "rules must be a table"),
    "aliases7": (b'id = "aliases7"\naliases = 7\n' + BASE.encode(), "aliases must be a list"),
    "draws": (b'id = "draws"\ndraws = {}\n' + BASE.encode(), "draws must be a list, not a table"),
    "bigint": (
        b'id = "bigint"\n' + BASE.encode() + b"[board]\nwidth = " + b"9" * 5000 + b"\n",
        "an integer of thousands of digits",
    ),
    "huge-width": (
        b'id = "huge"\n' + BASE.encode() + b"[board]\nwidth = 99999999999\n",
        "[board] width must be an integer from 2 to 12, not 99999999999",
    ),
    "plies": (
        b'id = "plies"\n' + BASE.encode() + b"[[draws]]\nplies = 1e9\n",
        "[[draws]] #1 plies must be an integer, not a decimal number",
    ),
    "escape": (b'id = "esc"\nname = "red \\u001b[31m"\nhost = "russian"\n', "control characters"),
    "dotdot": (b'id = "../../x"\n' + BASE.encode(), "id must be lower-case letters"),
    "no-id": (BASE.encode(), "missing key id"),
    "not-toml": (b'id = "x\n', "not valid TOML"),
    "too-large": (b"# " + b"x" * (1 << 20) + b"\n", "too large"),
    "bad-host": (b'id = "bad-host"\nname = "x"\nhost = "' + b"9" * 5000 + b'"\n', "host must be"),
    "bad-start": (b'id = "bad-start"\n' + BASE.encode() + b'[board]\nstart = "W:W99"\n', "start"),
}


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A registry of its own, with an empty per-user folder; returns the folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(variant_registry, "_REGISTRY", None)
    folder = tmp_path / "data" / "shashki" / "variants"
    folder.mkdir(parents=True)
    return folder


def hostile_folder(folder: Path) -> dict[str, str]:
    """Fill ``folder`` with every hostile file, special files and one good file; returns
    the words each file's warning must hold, by path."""
    words = {}
    for name, (data, what) in HOSTILE.items():
        path = folder / f"{name}.toml"
        path.write_bytes(data)
        words[str(path)] = what
    os.mkfifo(folder / "fifo.toml")
    words[str(folder / "fifo.toml")] = "a pipe (FIFO), not a regular file"
    (folder / "folder.toml").mkdir()
    words[str(folder / "folder.toml")] = "a folder, not a file"
    (folder / "zero.toml").symlink_to("/dev/zero")
    words[str(folder / "zero.toml")] = "a device, not a regular file"
    (folder / "good.toml").write_text(GOOD, encoding="utf-8")
    return words


def test_every_bad_file_is_skipped_with_one_line_naming_it(fresh: Path) -> None:
    words = hostile_folder(fresh)
    reg = registry()
    assert find_variant("double-brazilian").host == "brazilian"
    assert len(reg) == BUILTINS + 1
    for line in reg.errors:
        assert "\n" not in line and len(line) < 400, line
    for path, what in words.items():
        lines = [e for e in reg.errors if f"{path}:" in e or f"{path} " in e]
        assert len(lines) == 1, (path, reg.errors)
        assert what in lines[0], lines[0]


@pytest.mark.parametrize(
    "args", [["variants"], ["variants", "--json"], ["rules", "russian"], ["rules", "25"]]
)
def test_every_command_still_works_beside_bad_files(
    fresh: Path, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    hostile_folder(fresh)
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    if args[0] == "variants":
        assert "double-brazilian" in out
        assert len(err.splitlines()) == len(HOSTILE) + 3
        assert all(line.startswith("shashki: warning: ") for line in err.splitlines())
    else:
        assert out.startswith("Russian draughts\n")


def test_perft_still_works_beside_bad_files(
    fresh: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile_folder(fresh)
    assert main(["perft", "double-brazilian", "2"]) == 0
    assert capsys.readouterr().out.strip() == "56"


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_same_file_on_the_command_line_is_an_error(
    fresh: Path, tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"{name}.toml"
    path.write_bytes(HOSTILE[name][0])
    assert main(["--variant-file", str(path), "rules", "russian"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"shashki: error: {path}")
    assert err.count("\n") == 1 and HOSTILE[name][1] in err, err
    assert len(err) < 500


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_a_special_file_on_the_command_line_is_refused_at_once(
    fresh: Path, tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "special.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    assert main(["--variant-file", str(path), "variants"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a" in err, err


# -- encodings ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be"]
)
def test_a_file_in_unicode_with_a_bom_is_read(tmp_path: Path, encoding: str) -> None:
    text = 'id = "mine"\nname = "Мои шашки"\nhost = "russian"\nnames = { ru = "Мои" }\n'
    data = text.encode(encoding)
    bom = {
        "utf-16-le": codecs.BOM_UTF16_LE,
        "utf-16-be": codecs.BOM_UTF16_BE,
        "utf-32-be": codecs.BOM_UTF32_BE,
    }
    data = bom.get(encoding, b"") + data
    path = tmp_path / "mine.toml"
    path.write_bytes(data)
    v = load_variant_file(path)
    assert (v.id, v.name, v.names["ru"]) == ("mine", "Мои шашки", "Мои")


# -- the shape check before tomllib --------------------------------------------------------------

BARE = re.compile(r"[A-Za-z0-9_-]+")


def key(text: str) -> str:
    return text if BARE.fullmatch(text) else json.dumps(text)


def toml_value(value: Any) -> tuple[str, int]:
    """``value`` in TOML, and the depth of brackets it opens."""
    if isinstance(value, bool):
        return ("true" if value else "false"), 0
    if isinstance(value, (int, float)):
        return repr(value), 0
    if isinstance(value, str):
        if "'" not in value and value.isprintable() and len(value) % 2:
            return f"'{value}'", 0  # a literal string, now and then
        return json.dumps(value), 0
    if isinstance(value, list):
        parts = [toml_value(v) for v in value]
        return "[" + ", ".join(p for p, _ in parts) + "]", 1 + max((d for _, d in parts), default=0)
    parts = [(key(k), toml_value(v)) for k, v in value.items()]
    text = "{" + ", ".join(f"{k} = {p}" for k, (p, _) in parts) + "}"
    return text, 1 + max((d for _, (_, d) in parts), default=0)


TEXTS = st.text(st.characters(blacklist_categories=["Cs"]), max_size=12) | st.sampled_from(
    ['"""', "'''", "[[", "]]", "{", "a.b.c.d.e.f.g.h.i.j", "#", "\\", '"', "'", "\n", "x = ["]
)
VALUES = st.recursive(
    TEXTS | st.integers() | st.booleans() | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXTS, inner, max_size=3),
    max_leaves=25,
)
DOTTED = st.lists(TEXTS, min_size=1, max_size=MAX_KEY_PARTS)


@settings(max_examples=300)
@given(st.lists(st.tuples(DOTTED, VALUES), min_size=1, max_size=4), st.booleans(), TEXTS)
def test_the_shape_check_passes_what_tomllib_reads(
    entries: list[tuple[list[str], Any]], header: bool, comment: str
) -> None:
    lines = ["# " + comment.replace("\n", " ").replace("\r", " ")]
    if header:
        lines.append('[ "t" . t2 ]  # a table [header]')
    depth = 0
    seen: set[str] = set()
    for parts, value in entries:
        if parts[0] in seen:
            continue
        seen.add(parts[0])
        text, d = toml_value(value)
        depth = max(depth, d)
        lines.append(" . ".join(key(p) for p in parts) + " = " + text)
    document = "\n".join(lines) + "\n"
    try:
        tomllib.loads(document)
    except tomllib.TOMLDecodeError:
        return  # e.g. a key given twice through a dotted path
    except RecursionError:  # pragma: no cover - the values nest at most 25 deep
        raise
    expected = None if depth <= MAX_NESTING else "nested more than"
    problem = _toml_shape_error(document)
    if expected is None:
        assert problem is None, (problem, document)
    else:
        assert problem is not None and expected in problem


@pytest.mark.parametrize(
    "text",
    [
        'a = """x""""\nb = [1]\n',
        "a = '''x''''\nb = [1]\n",
        'a = """\n[[[[[[[[[[[[[[[[[[[[\n"""\n',
        "a = '''\n{{{{{{{{{{{{{{{{{{{{{{\n'''\n",
        'a = "[[[[[[[[[[[[[[[[[[[[[[[[ \\" [[[["\n',
        "a = '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[['\n",
        "# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n",
        'a = "a.b.c.d.e.f.g.h.i.j.k.l"\n',
        "a = 1.5\nb = 1979-05-27T07:32:00.999\nc = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5]\n",
        'a = """x\\\n  """\n',
    ],
)
def test_the_shape_check_skips_strings_and_comments(text: str) -> None:
    tomllib.loads(text)
    assert _toml_shape_error(text) is None


@pytest.mark.parametrize("path", sorted(builtin_variant_dir().glob("*.toml")), ids=str)
def test_the_shipped_files_pass_the_shape_check(path: Path) -> None:
    assert _toml_shape_error(path.read_text("utf-8")) is None


def test_a_recursion_error_in_tomllib_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the shape check keeps tomllib far from the recursion limit; behind it, a guard
    monkeypatch.setattr(variant_file, "MAX_NESTING", 10**9)
    path = tmp_path / "deep.toml"
    path.write_bytes(HOSTILE["deep"][0])
    with pytest.raises(
        VariantFileError, match=r"deep\.toml: not a variant file: nested too deeply"
    ):
        read_variant_file(path)


# -- ids ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["../../x", "x/y", "X", "", "a" * 41, "-x", "25", "a b", "é"])
def test_no_variant_has_an_unsafe_id(bad: str) -> None:
    v = find_variant("russian")
    with pytest.raises(VariantFileError, match="id must be"):
        Variant(bad, v.name, v.board, v.rules, v.start)


def test_the_shipped_ids_and_aliases_are_safe() -> None:
    for v in registry():
        for text in (v.id, *v.aliases):
            assert is_valid_id(text), text


def test_the_ending_tables_never_write_outside_their_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from shashki.engine import endings

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    v = load_variant_file(_write(tmp_path, 'id = "mine"\nname = "x"\nhost = "russian"\n'))
    object.__setattr__(v, "id", "../../../escaped")  # as if an id had slipped through
    table = endings.EndingTable(v, (1, 0, 1, 0), lambda pos: 0)  # a king each
    folder = (tmp_path / "cache" / "shashki" / "endings").resolve()
    assert table.cache_path().resolve().parent == folder
    written = [p for p in tmp_path.rglob("*.bin")]
    assert written and all(p.resolve().parent == folder for p in written)


def _write(folder: Path, text: str, name: str = "mine") -> Path:
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


# -- a user's file never takes over a built-in ---------------------------------------------------

TAKEOVERS = {
    "id": ('id = "russian"\nname = "mine"\nhost = "english"\n', "id 'russian' already names"),
    "id-alias": ('id = "shashki"\nname = "mine"\nhost = "english"\n', "id 'shashki' already"),
}
IGNORED = {
    "alias": ('aliases = ["shashki", "mine-too"]\n', "alias 'shashki' is ignored", "shashki"),
    "name": (
        'name = "Russian draughts"\n',
        "name 'Russian draughts' is ignored",
        "russian draughts",
    ),
    "names": (
        'names = { ru = "Русские шашки" }\n',
        "[names] ru 'Русские шашки' is ignored",
        "русские шашки",
    ),
    "gametype": (
        '[pdn]\ngametype = "25,W,8,8,A0,0"\nprimary = true\n',
        "[pdn] primary is ignored: GameType 25 means the built-in variant russian",
        "25",
    ),
}


@pytest.mark.parametrize("case", sorted(TAKEOVERS))
def test_a_user_file_cannot_take_a_builtin_id(fresh: Path, case: str) -> None:
    text, words = TAKEOVERS[case]
    _write(fresh, text)
    reg = registry()
    assert any(words in e and "mine.toml" in e for e in reg.errors), reg.errors
    assert find_variant("russian").host == "" and find_variant("shashki").id == "russian"
    assert len(reg) == BUILTINS


@pytest.mark.parametrize("case", sorted(IGNORED))
def test_a_user_file_cannot_take_a_builtin_name(fresh: Path, case: str) -> None:
    extra, words, key = IGNORED[case]
    text = 'id = "mine"\nhost = "english"\n' + ("" if case == "name" else 'name = "Mine"\n')
    _write(fresh, extra + text if not extra.startswith("[") else text + extra)
    reg = registry()
    assert any(words in e and "mine.toml" in e for e in reg.errors), reg.errors
    assert find_variant(key).id == "russian"
    assert find_variant("mine").host == "english"  # the rest of the file is used


def test_an_ignored_alias_is_dropped_and_the_others_kept(fresh: Path) -> None:
    _write(fresh, 'id = "mine"\nname = "Mine"\nhost = "english"\n' + IGNORED["alias"][0])
    v = find_variant("mine-too")
    assert v.id == "mine" and v.aliases == ("mine-too",)


def test_a_user_gametype_of_its_own_may_be_primary(fresh: Path) -> None:
    _write(
        fresh,
        'id = "mine"\nname = "Mine"\nhost = "english"\n[pdn]\ngametype = "99"\nprimary = true\n',
    )
    _write(
        fresh, 'id = "other"\nname = "Other"\nhost = "english"\n[pdn]\ngametype = "99"\n', "other"
    )
    assert find_variant("99").id == "mine"
    assert not registry().errors


def test_two_user_files_of_one_id(fresh: Path) -> None:
    _write(fresh, 'id = "mine"\nname = "A"\nhost = "english"\n', "a")
    _write(fresh, 'id = "mine"\nname = "B"\nhost = "russian"\n', "b")
    assert find_variant("mine").host == "english"
    assert any("b.toml" in e and "already defined by" in e for e in registry().errors)


def test_a_host_named_by_alias_is_the_builtin(fresh: Path) -> None:
    # a user's file cannot make the alias "shashki" mean itself as a host either
    _write(fresh, 'id = "shashki"\nname = "Fake"\nhost = "english"\n', "fake")
    _write(fresh, 'id = "child"\nname = "Child"\nhost = "shashki"\n', "child")
    assert find_variant("child").rules == find_variant("russian").rules


def test_a_long_host_chain_is_refused(fresh: Path) -> None:
    _write(fresh, 'id = "v0"\nname = "v0"\nhost = "russian"\n', "v0")
    for i in range(1, 30):
        _write(fresh, f'id = "v{i}"\nname = "v{i}"\nhost = "v{i - 1}"\n', f"v{i}")
    reg = registry()
    assert find_variant("v15").host == "v14"
    with pytest.raises(UnknownVariantError):
        find_variant("v29")
    assert any("host chain of more than 16" in e for e in reg.errors)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (TAKEOVERS["id"][0], "id 'russian' already names the built-in variant russian"),
        (TAKEOVERS["id-alias"][0], "id 'shashki' already names the built-in variant russian"),
        ('id = "mine"\nname = "x"\nhost = "english"\n' + IGNORED["alias"][0], "alias 'shashki'"),
        ('id = "mine"\nhost = "english"\n' + IGNORED["name"][0], "name 'Russian draughts'"),
        (
            'id = "mine"\nname = "x"\nhost = "english"\n' + IGNORED["gametype"][0],
            "[pdn] primary: GameType 25 means the built-in variant russian",
        ),
    ],
)
def test_a_takeover_on_the_command_line_is_an_error(
    fresh: Path, tmp_path: Path, text: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, text)
    assert main(["--variant-file", str(path), "rules", "25"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and str(path) in err, err
    assert find_variant("25").id == "russian"


def test_the_command_line_may_replace_a_users_own_variant(
    fresh: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(fresh, 'id = "mine"\nname = "Old"\naliases = ["old"]\nhost = "english"\n')
    path = _write(tmp_path, 'id = "mine"\nname = "New"\naliases = ["new"]\nhost = "brazilian"\n')
    assert main(["--variant-file", str(path), "rules", "mine"]) == 0
    assert capsys.readouterr().out.startswith("New\n")
    assert find_variant("mine").host == "brazilian" and find_variant("new").id == "mine"
    with pytest.raises(UnknownVariantError):
        find_variant("old")
    assert Game("mine").perft(1) == 7


def test_a_merged_table_is_checked_too(tmp_path: Path) -> None:
    # the host's goal is on rank 8; a board of 6 ranks leaves it off the board
    path = _write(
        tmp_path,
        'id = "small"\nname = "x"\nhost = "wolf-sheep"\n[board]\nheight = 6\nwidth = 6\n'
        'start = "W:WKa1:Bb6,d6,f6"\nstart_options = []\n',
        "small",
    )
    with pytest.raises(
        VariantFileError, match=r"small\.toml: \[\[goals\]\] #1 rank must be between 1 and 6"
    ):
        load_variant_file(path)
    path = _write(tmp_path, 'id = "nameless"\nhost = "russian"\n', "nameless")
    with pytest.raises(VariantFileError, match=r"nameless\.toml: missing key name$"):
        load_variant_file(path)


def test_the_command_line_takes_an_alias_from_a_users_variant_not_the_variant(
    fresh: Path, tmp_path: Path
) -> None:
    _write(fresh, 'id = "a"\nname = "A"\naliases = ["b"]\nhost = "english"\n', "a")
    path = _write(tmp_path, 'id = "b"\nname = "B"\nhost = "russian"\n', "b")
    variant_registry.add_variant_file(path)
    assert find_variant("b").host == "russian"
    assert find_variant("a").host == "english"
