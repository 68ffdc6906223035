"""Make the starter set of puzzles shipped with shashki: ``src/shashki/training/starter/
<variant>.pdn``, one book a variant (docs/TRAINING.md says the sources and licences).

    python tools/make_starter.py --work /tmp/starter [--variants russian,international]
        [--shared ../shared] [--target 40] [--workers 1]

Each variant's puzzles are mined by shashki's own mining (``shashki puzzles mine``, the
same options) from shashki's self-play (``shashki puzzles mine --self-play``) until the
variant has ``--target`` puzzles or the plan's games are spent; the archives a
:data:`PLAN` may name (none for what ships: see there) are mined first, each puzzle's
``Source`` tag naming the repository, its licence, the file, the game and its players.
The work books in ``--work`` resume where a run stopped (a run asked again mines nothing twice); the
starter file is written anew from its work book each time (at most ``--most``
puzzles, the easiest first; none for a variant with fewer than :data:`LEAST`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shashki.records.writer import write_game  # noqa: E402
from shashki.rules import find_variant  # noqa: E402
from shashki.training.book import BookWriter, puzzle_record, read_book  # noqa: E402
from shashki.training.harvest import mine_files  # noqa: E402
from shashki.training.mining import MiningOptions, Puzzle, proof_holds  # noqa: E402
from shashki.training.selfplay import SelfPlay, mine_self_play  # noqa: E402

STARTER = ROOT / "src" / "shashki" / "training" / "starter"
#: A variant with fewer puzzles gets no starter book.
LEAST = 10


@dataclass(frozen=True)
class Archive:
    """An archive of ``../shared/corpora/pdn`` (see its SOURCES.md) mined for a variant."""

    path: str
    repository: str
    licence: str
    #: The games mined, at most (the first of the file).
    games: int = 0


@dataclass(frozen=True)
class Plan:
    """Where one variant's puzzles come from: archives, then self-play."""

    archives: tuple[Archive, ...] = ()
    #: Self-play games at most, their level, and the seed.
    games: int = 200
    level: int = 3
    seed: int = 1
    max_plies: int = 200


GPL_MIG0 = ("mig0/Games-Checkers", "GPL-3.0")
GPL_MISKIBIN = ("miskibin/py-draughts", "GPL-3.0")

#: Each variant's sources: self-play only for what ships.  Nothing mined from the shared
#: corpus goes into the package (its records stay out of the project, and the archives
#: whose licence would allow passing on what is mined are GPL-3.0, which shashki's MIT
#: package does not carry); an ``Archive`` here (e.g. ``Archive("russian/mig0-Games-
#: Checkers/World_Championship_1998.pdn", *GPL_MIG0, 60)``) mines one for a set of one's own.
PLAN: dict[str, Plan] = {
    "international": Plan(games=120, level=2, max_plies=160),
    "russian": Plan(),
    "brazilian": Plan(),
    "italian": Plan(games=300),
    "pool": Plan(),
    "spanish": Plan(),
    "portuguese": Plan(),
    "czech": Plan(),
    # (level 3 gave no candidate in 10 Turkish games: its players see the shots of a
    # game whose captures are all forced; level 1's blunders leave them)
    "turkish": Plan(games=200, level=1),
    "frisian": Plan(games=80, level=2, max_plies=160),
}


def first_games(path: Path, count: int, into: Path) -> Path:
    """The first ``count`` games of a PDN file, in a file of the work folder (the whole
    file when ``count`` is 0 or it is a JSON list)."""
    if not count or path.suffix.lower() == ".json":
        return path
    if into.exists():
        return into  # (as made before: its mining resumes)
    out: list[str] = []
    games = 0
    tags = False
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True):
        is_tag = line.lstrip().startswith("[")
        if is_tag and not tags:
            games += 1
            if games > count:
                break
        out.append(line)
        if line.strip():
            tags = is_tag
    into.write_text("".join(out), encoding="utf-8")
    return into


def make(variant_id: str, args: argparse.Namespace) -> None:
    plan = PLAN[variant_id]
    variant = find_variant(variant_id)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    book_path = work / f"{variant.id}.pdn"
    options = MiningOptions()
    corpus = Path(args.shared) / "corpora" / "pdn"
    sources: dict[str, Archive] = {}
    started = time.perf_counter()
    for archive in plan.archives:
        path = corpus / archive.path
        if not path.is_file():
            print(f"{variant.id}: {path} is absent: left out", flush=True)
            continue
        name = f"{variant.id}-{archive.games}-{path.name}" if archive.games else path.name
        sample = first_games(path, archive.games, work / name)
        sources[sample.name] = archive
        report = mine_files(
            BookWriter(book_path),
            [sample],
            options=options,
            default_variant=variant.id,
            workers=args.workers,
        )
        print(
            f"{variant.id}: {archive.path}: {report.games} games, {report.positions} "
            f"positions, {report.found} puzzles ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    step = 10
    games = 0
    while games < plan.games:
        held = shippable(book_path)
        if held >= args.target:
            break
        games = min(plan.games, games + step)
        run = SelfPlay(
            variant.id,
            games,
            level=plan.level,
            seed=plan.seed,
            date=args.date,
            max_plies=plan.max_plies,
        )
        report = mine_self_play(BookWriter(book_path), run, options=options, workers=args.workers)
        print(
            f"{variant.id}: self-play to {games} games: {report.games} played, "
            f"{report.found} puzzles ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    write_starter(variant.id, book_path, sources, args.most)


def shippable(book_path: Path) -> int:
    """The puzzles of a work book that would ship: mined from self-play, passing the
    rule of small endings."""
    if not book_path.exists():
        return 0
    return sum(
        p.source.startswith("shashki self-play") and proof_holds(p)
        for p in read_book(book_path).puzzles
    )


def write_starter(variant_id: str, book_path: Path, sources: dict[str, Archive], most: int) -> None:
    """The starter book of ``variant_id`` from its work book: each archive puzzle's
    source with its repository and licence, each self-play one's with its seed, the
    easiest first; a puzzle mined before the rule of small endings
    (:func:`~shashki.training.mining.proven`) that fails it is left out."""
    if not book_path.exists():
        return
    puzzles: list[Puzzle] = []
    refused = 0
    for puzzle in read_book(book_path).puzzles:
        if not proof_holds(puzzle):
            refused += 1
            continue
        if puzzle.source.startswith("shashki self-play") and ", seed " not in puzzle.source:
            # (mined before the sources said the seed: the plan's, as every run of it)
            run, _, where = puzzle.source.partition(" #")
            seed = PLAN[variant_id].seed
            puzzle = replace(puzzle, source=f"{run}, seed {seed} #{where}")
        name = puzzle.source.split(" #", 1)[0]
        archive = sources.get(name)
        if archive is not None:
            original = Path(archive.path).name
            where = puzzle.source.replace(name, original, 1)
            puzzle = replace(puzzle, source=f"{archive.repository} ({archive.licence}): {where}")
        elif not puzzle.source.startswith("shashki self-play"):
            continue  # (a file not of the plan: never shipped)
        puzzles.append(puzzle)
    if refused:
        print(f"{variant_id}: {refused} puzzles of small endings not proven: left out", flush=True)
    puzzles.sort(key=lambda p: p.difficulty)
    puzzles = puzzles[:most]
    if len(puzzles) < LEAST:
        print(f"{variant_id}: only {len(puzzles)} puzzles: no starter book", flush=True)
        return
    STARTER.mkdir(exist_ok=True)
    text = "".join(
        ("\n" if n else "") + write_game(puzzle_record(p)) for n, p in enumerate(puzzles)
    )
    target = STARTER / f"{variant_id}.pdn"
    target.write_text(text, encoding="utf-8", newline="\n")
    print(f"{variant_id}: {len(puzzles)} puzzles in {target.relative_to(ROOT)}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True, help="the folder of the work books")
    parser.add_argument("--variants", default=",".join(PLAN), help="by commas")
    parser.add_argument(
        "--shared", default=os.environ.get("SHASHKI_SHARED", os.fspath(ROOT.parent / "shared"))
    )
    parser.add_argument("--target", type=int, default=40, help="puzzles a variant wanted")
    parser.add_argument("--most", type=int, default=60, help="puzzles a variant shipped")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--date", default=time.strftime("%Y-%m-%d"), help="the day of the self-play games"
    )
    parser.add_argument(
        "--write-only", action="store_true", help="write the starter files from the work books"
    )
    args = parser.parse_args()
    for variant_id in args.variants.split(","):
        if variant_id not in PLAN:
            parser.error(f"no plan for {variant_id}: one of {', '.join(PLAN)}")
        if args.write_only:
            plan = PLAN[variant_id]
            sources = {
                (f"{variant_id}-{a.games}-{Path(a.path).name}" if a.games else Path(a.path).name): a
                for a in plan.archives
            }
            write_starter(variant_id, Path(args.work) / f"{variant_id}.pdn", sources, args.most)
        else:
            make(variant_id, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
