"""How far past its time the engine answers in hostile positions, per variant.

    python benchmarks/overrun.py [--time 1] [--positions 2] [--only russian,turkish]
                                 [--player] [--cli]

Positions that once made the search overrun: crowds of flying kings (twenty against
twenty on 10×10, whose exchanges go on for forty plies), a lone king against a crowd
(exponentially many capture sequences), kings mixed with men, Bashni's tall columns,
Turkish and Tama kings on every square.  Every variant with flying kings is tried on its
own board and, through a user variant file (written to a temporary folder, as a user
would), on 10×10; so are two Frisian-like user variants (kings flying in eight
directions, pieces removed at once).

Each position is searched as ``shashki best --time T`` searches it (a move is wanted
even when listing the legal moves alone takes longer than T); with ``--player`` also by
the app's computer (level 5, T seconds a move), with ``--cli`` by the command itself in
a new process (the figure then includes Python's start).  The table gives, per variant:
the positions tried, the worst overrun (wall-clock seconds past T, negative when the
search ended early), the position where it happened, and the positions whose legal moves
alone took longer than T to list (where keeping the time is not possible: the engine
says so and answers after listing them).  Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.engine import ComputerPlayer, Search
from shashki.rules import Game, ShashkiError, find_variant
from shashki.rules.variant import Variant
from shashki.rules.variant_registry import add_variant_file

#: Variants with flying kings, and the host of their 10×10 user copy ("" for none).
FLYING = [
    ("international", ""),
    ("brazilian", "brazilian"),
    ("russian", "russian"),
    ("traditional", "traditional"),
    ("turkish", "turkish"),
    ("tama", "tama"),
    ("bashni", "bashni"),
    ("artamonov", ""),
    ("self-capture", ""),
]

#: Frisian-like user variants: kings fly in eight directions, captured pieces go at once.
USER_VARIANTS = {
    "frisian-like-10": """
id = "frisian-like-10"
name = "Frisian-like 10x10 (benchmark)"
summary = "Kings fly and capture in eight directions, pieces are removed at once."
[board]
width = 10
height = 10
squares = "all"
start = "W:Wa1:Bj10"
[rules]
man_moves = ["forward", "left", "right"]
man_captures = ["forward", "left", "right", "diagonal"]
king_moves = ["orthogonal", "diagonal"]
king_captures = ["orthogonal", "diagonal"]
capture_choice = "majority"
removal = "immediate"
""",
    "frisian-like-12": """
id = "frisian-like-12"
name = "Frisian-like 12x12 (benchmark)"
summary = "Kings fly and capture in eight directions, free choice, pieces removed at once."
[board]
width = 12
height = 12
squares = "all"
start = "W:Wa1:Bl12"
[rules]
man_moves = ["forward", "left", "right"]
man_captures = ["forward", "left", "right", "diagonal-forward"]
king_moves = ["orthogonal", "diagonal"]
king_captures = ["orthogonal", "diagonal"]
capture_choice = "free"
removal = "immediate"
""",
}

#: Positions found by a search for slow move lists (hill climbing on the listing time).
FIXED = {
    "turkish": [
        (
            "one king against twenty (64 moves of 20 captures)",
            "W:WKd8:BKe1,Kg7,Kc1,Ka7,Ke3,Ke5,Kd6,Kd2,Kc8,Kh6,Kf6,Kb6,Ka4,Kf2,Kb2,Kc3,Ke8,Kc5,Kd4,Kg5",
        )
    ],
    "bashni": [
        (
            "a king among columns of seven (3071 moves)",
            "W:WKb2:Bg3=bbbbbbB,g5=bbbbbbB,e7=bbbbbbB,e3=bbbbbbB,c7=bbbbbbB,d6=bbbbbbB,"
            "e5=bbbbbbB,c5=bbbbbbB",
        )
    ],
}


def ten_by_ten(host: str) -> str:
    """A user variant file: ``host``'s rules on a 10×10 board."""
    squares = "all" if find_variant(host).board.all_squares else "dark"
    return f"""
id = "{host}-10x10"
host = "{host}"
name = "{find_variant(host).name} on 10x10 (benchmark)"
summary = "The host's rules on a bigger board."
[board]
width = 10
height = 10
squares = "{squares}"
notation = "algebraic"
start = "W:Wa1:Bj10"
"""


def square_names(variant: Variant) -> list[str]:
    geo = variant.board
    return [str(geo.number(s)) if variant.numeric else geo.name(s) for s in geo.squares]


def split_kings(variant: Variant, per_side: int) -> str:
    """The kings of each side in a block at its own end (the issue's twenty against
    twenty: the two crowds face each other)."""
    names = square_names(variant)
    white = names[:per_side]
    black = names[-per_side:]
    return "W:W" + ",".join(f"K{n}" for n in white) + ":B" + ",".join(f"K{n}" for n in black)


def scattered(variant: Variant, rng: random.Random, white: int, black: int, kings: float) -> str:
    names = rng.sample(square_names(variant), white + black)

    def item(n: str) -> str:
        return f"K{n}" if rng.random() < kings else n

    w = ",".join(item(n) for n in names[:white])
    b = ",".join(item(n) for n in names[white:])
    return f"{rng.choice('WB')}:W{w}:B{b}"


def neutral(variant: Variant, rng: random.Random, count: int) -> str:
    """Artamonov's shared pieces, mostly kings."""
    names = rng.sample(square_names(variant), count)
    return "W:N" + ",".join(f"K{n}" if rng.random() < 0.7 else n for n in names)


def columns(variant: Variant, rng: random.Random, count: int) -> str:
    names = [n for n in square_names(variant) if n[0] not in "aj" and n[1:] not in ("1", "10")]
    names = [n for n in names if n[0] != chr(ord("a") + variant.board.width - 1)]
    chosen = rng.sample(names, count)
    black = ",".join(f"{n}=" + "b" * rng.randint(2, 6) + "B" for n in chosen[1:])
    return f"W:WK{chosen[0]}:B{black}"


def hostile(variant: Variant, count: int) -> list[tuple[str, str]]:
    """(what, FEN) of the hostile positions of ``variant``."""
    rng = random.Random(f"overrun-{variant.id}")
    n = len(variant.board.squares)
    crowd = max(4, min(20, n * 2 // 5))
    out: list[tuple[str, str]] = list(FIXED.get(variant.id, []))
    if variant.family == "artamonov":
        return out + [(f"{k} shared pieces", neutral(variant, rng, k)) for k in (12, 20, 28)]
    if variant.family == "bashni":
        out += [("a king among columns", columns(variant, rng, 9)) for _ in range(count)]
    out.append((f"{crowd} kings against {crowd}, facing", split_kings(variant, crowd)))
    for _ in range(count):
        out.append((f"{crowd} kings against {crowd}", scattered(variant, rng, crowd, crowd, 1.0)))
        out.append((f"a king against {crowd}", scattered(variant, rng, 1, crowd, 1.0)))
        k = min(12, crowd)
        out.append((f"{k} against {k}, kings and men", scattered(variant, rng, k, k, 0.5)))
    return out


@dataclass
class Trial:
    what: str
    fen: str
    overrun: float
    unlisted: bool


def run_search(variant: Variant, fen: str, seconds: float) -> tuple[float, bool]:
    game = Game(variant, fen)
    started = time.perf_counter()
    result = Search(variant).search(game, seconds=seconds, must_move=True)
    return time.perf_counter() - started - seconds, result.unlisted


def run_player(variant: Variant, fen: str, seconds: float) -> tuple[float, bool]:
    game = Game(variant, fen)
    player = ComputerPlayer(5, seconds=seconds)
    started = time.perf_counter()
    player.think(game)
    unlisted = player.last is not None and player.last.unlisted
    return time.perf_counter() - started - seconds, unlisted


def run_cli(variant: Variant, fen: str, seconds: float, files: list[Path]) -> tuple[float, bool]:
    command = [sys.executable, "-m", "shashki"]
    for f in files:
        command += ["--variant-file", str(f)]
    command += ["best", variant.id, "--time", str(seconds), "--fen", fen]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    return time.perf_counter() - started - seconds, "warning: listing" in done.stderr


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--time", type=float, default=1.0, help="seconds per search (T)")
    p.add_argument("--positions", type=int, default=2, help="random positions of each kind")
    p.add_argument("--only", help="variant ids, separated by commas")
    p.add_argument("--player", action="store_true", help="the app's computer player")
    p.add_argument("--cli", action="store_true", help="the command, in a new process")
    p.add_argument("--verbose", action="store_true", help="a line per position")
    args = p.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="shashki-overrun-"))
    files = []
    texts = dict(USER_VARIANTS)
    for _, host in FLYING:
        if host:
            texts[f"{host}-10x10"] = ten_by_ten(host)
    for vid, text in texts.items():
        path = folder / f"{vid}.toml"
        path.write_text(text, encoding="utf-8")
        add_variant_file(path)
        files.append(path)
    ids = [v for v, _ in FLYING]
    ids += [f"{host}-10x10" for _, host in FLYING if host] + list(USER_VARIANTS)
    if args.only:
        try:
            wanted = {find_variant(n.strip()).id for n in args.only.split(",") if n.strip()}
        except ShashkiError as e:
            p.error(str(e))
        ids = [i for i in ids if i in wanted]
    runs = [("search", run_search)]
    if args.player:
        runs.append(("player", run_player))
    print(f"T = {args.time:g} s; overrun = wall-clock seconds past T (negative: early)")
    print(f"{'variant':20} {'by':7} {'positions':>9} {'worst':>7}  {'unlisted':>8}  worst case")
    for vid in ids:
        variant = find_variant(vid)
        positions = hostile(variant, args.positions)
        kinds = list(runs)
        if args.cli:
            kinds.append(("cli", lambda v, f, s: run_cli(v, f, s, files)))
        for by, run in kinds:
            trials = []
            for what, fen in positions:
                overrun, unlisted = run(variant, fen, args.time)
                trials.append(Trial(what, fen, overrun, unlisted))
                if args.verbose:
                    note = "  (moves listed late)" if unlisted else ""
                    print(f"    {vid} {by}: {overrun:+.3f} s  {what}{note}", flush=True)
            kept = [t for t in trials if not t.unlisted] or trials
            worst = max(kept, key=lambda t: t.overrun)
            late = [t for t in trials if t.unlisted]
            late_text = f"{len(late)} ({max(t.overrun for t in late):+.1f} s)" if late else "0"
            print(
                f"{vid:20} {by:7} {len(trials):9d} {worst.overrun:+7.3f}  {late_text:>8}  "
                f"{worst.what}: {worst.fen[:60]}{'…' if len(worst.fen) > 60 else ''}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
