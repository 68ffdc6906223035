"""Training's figures: the opening explorer's build and answer times on the whole shared
corpus, and puzzle mining's throughput.

    python benchmarks/training.py explorer [--workers N] [--answers 2000]
    python benchmarks/training.py mining [--games 40] [--workers N] [--depth 4] [--keep BOOK]
    python benchmarks/training.py quality BOOK… [--count 100] [--more 4] [--longer 4]
        [--scan CMD]

``explorer`` indexes every PDN and JSON file of ``../shared/corpora/pdn`` (each folder's
games read as the variant the folder is named after when they name none; the parser's
edge cases left out) into a new index in a temporary folder, then asks it for positions
met in those games (``--answers`` of them, drawn with a fixed seed: the start position
and positions a few moves in, where most games meet), and prints the build time and the
answer times (median, 99th percentile, the slowest).

``mining`` mines the first ``--games`` games of each of a few archives of real games
(Russian, International, English, Brazilian) into a new book and prints positions judged
a second and puzzles found per thousand games.  ``--compiled`` uses the compiled build
(made by ``shashki compile``) and runs the jobs in this process (the worker processes
of ``base.workers`` start pure): compare it with ``--workers 1`` for the same work on
one core; ``--keep BOOK`` keeps the puzzles found there.

``quality`` verifies ``--count`` puzzles of a book (drawn with ``--seed``; all of them
when there are no more) again with a search ``--more`` plies deeper than the one that
verified them (4: 4.4 to 5.7 times its time, 3 only 2 to 3.6 times; the mining's
verification is run again for the first ``--timed`` to compare), as a puzzle is defined (its first
move wins two men or more, every other keeps at most half a man; none of the mining's
safety margins), and prints how many are still unique and winning, and how much longer
that search took than the mining's whole verification.  ``--longer 4`` times every
puzzle's verification and deepens its re-check a ply at a time until that search alone
took four times as long (at most ``--longest`` plies deeper than the mining's: a search
of a few pieces that reaches the end of the game takes no longer deeper, and is said).
``--scan "DIR/scan hub"`` has Scan 2.0 (built by
``../shared/engines/scan-2.0/build.sh``) judge the International ones too, at ``--scan-
depth`` (14): the first move must be Scan's best and win two men or more, every other
move under two men. In an ending of Scan's bitbases (``--scan-bb``, 4 pieces as
``scan.ini`` sets) Scan's score is not the bitbase's (it searches there with the smaller
bitbases only, among the moves that keep the value): its own line is played out to the
end of the game instead, whose result is the judgement.

The shared corpus lives outside the project (``SHASHKI_SHARED`` names its folder); where
it is absent the benchmark says so and stops.  Nothing here asserts on time: a shared
machine drifts, so run it twice and read both.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = Path(os.environ.get("SHASHKI_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpora" / "pdn"
#: The plies of Scan's own line played out in an ending of its bitbases, at most.
LINE_MOST = 300
#: Archives of real games (not problems) for mining, with the variant of their folder.
MINING_FILES = (
    "russian/mig0-Games-Checkers/abatsiev.pdn",
    "international/mig0-Games-Checkers/wk2003.pdn",
    "english/eygilbert-CheckerBoard/tinsley.pdn",
    "brazilian/miskibin-py-draughts/random_pdns.json",
)


def corpus_files() -> list[tuple[str, Path]]:
    """(the folder's variant, file) for every archive of the corpus."""
    from shashki.rules import find_variant
    from shashki.rules.errors import ShashkiError

    out = []
    for folder in sorted(CORPUS.iterdir()):
        if not folder.is_dir() or folder.name.startswith("_"):
            continue
        try:
            variant = find_variant(folder.name).id
        except ShashkiError:
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix.lower() in (".pdn", ".json") and path.is_file():
                out.append((variant, path))
    return out


def explorer(args: argparse.Namespace) -> None:
    from shashki.records.reader import read_games
    from shashki.store.explorer import Explorer, Filter, build

    files = corpus_files()
    size = sum(p.stat().st_size for _, p in files)
    print(f"corpus: {len(files)} files, {size / 1e6:.1f} MB ({CORPUS})")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["XDG_DATA_HOME"] = folder  # (My games: none)
        index = Path(folder) / "bench.sqlite"
        games = positions = 0
        started = time.perf_counter()
        with Explorer(index, create=True) as ex:
            by_variant: dict[str, list[Path]] = {}
            for variant, path in files:
                by_variant.setdefault(variant, []).append(path)
            for variant, paths in by_variant.items():
                report = build(ex, paths, default_variant=variant, workers=args.workers)
                games += report.games
                positions += report.positions
        seconds = time.perf_counter() - started
        print(
            f"build: {games:,} games, {positions:,} positions in {seconds:.1f} s "
            f"({games / seconds:,.0f} games/s, workers {args.workers or os.cpu_count()}); "
            f"index {index.stat().st_size / 1e6:.1f} MB"
        )
        # positions to ask for: met in the corpus's games, a few moves in
        rng = random.Random(1)
        asked: list[tuple[str, str]] = []
        for variant, path in files:
            for n, record in enumerate(read_games(str(path), variant)):
                if n >= 40 or record.variant is None or record.errors:
                    break
                try:
                    game = record.start()
                except Exception:
                    continue
                for ply, move in enumerate(record.mainline_moves()[:16]):
                    if ply in (0, 2, 4, 8, 12):
                        asked.append((record.variant.id, game.fen()))
                    game.push(move)
        rng.shuffle(asked)
        asked = asked[: args.answers]
        with Explorer(index) as ex:
            for label, where in (
                ("answers", Filter()),
                ("answers filtered (player 'e', years 1900-2100)", Filter("e", 1900, 2100)),
            ):
                times = []
                hits = 0
                for variant_id, fen in asked:
                    t = time.perf_counter()
                    answer = ex.answer(variant_id, fen, where)
                    times.append(time.perf_counter() - t)
                    hits += bool(answer.moves)
                times.sort()
                ms = [t * 1000 for t in times]
                print(
                    f"{label}: {len(ms)} positions ({hits} with moves): "
                    f"median {statistics.median(ms):.2f} ms, "
                    f"99th percentile {ms[int(len(ms) * 0.99) - 1]:.2f} ms, slowest {ms[-1]:.2f} ms"
                )


def mining(args: argparse.Namespace) -> None:
    from shashki import native

    if args.compiled:
        native.use()  # (before the rules are imported; in this process only: --workers 1)
        if native.in_use() is None:
            print(f"no compiled build in use ({native.why_pure()}): run shashki compile first")
            return
    from shashki.training.book import BookWriter
    from shashki.training.harvest import mine_files
    from shashki.training.mining import MiningOptions

    build_used = "compiled" if native.in_use() is not None else "pure"
    with tempfile.TemporaryDirectory() as folder:
        samples = []
        for name in MINING_FILES:
            path = CORPUS / name
            if not path.exists():
                continue
            variant = name.split("/")[0]
            sample = Path(folder) / path.name
            if path.suffix == ".json":
                sample = path  # (whole: 30 texts)
            else:
                sample.write_text(first_games(path, args.games), encoding="utf-8")
            samples.append((variant, sample))
        options = MiningOptions(depth=args.depth, verify_depth=args.depth + 4)
        total_games = total_positions = total_found = 0
        started = time.perf_counter()
        for variant, sample in samples:
            book = BookWriter(args.keep or Path(folder) / f"{variant}.book.pdn")
            t = time.perf_counter()
            report = mine_files(
                book, [sample], options=options, default_variant=variant, workers=args.workers
            )
            seconds = time.perf_counter() - t
            print(
                f"{variant}: {report.games} games, {report.positions:,} positions judged in "
                f"{seconds:.1f} s ({report.positions / seconds:.1f}/s), {report.found} puzzles"
            )
            total_games += report.games
            total_positions += report.positions
            total_found += report.found
        seconds = time.perf_counter() - started
        print(
            f"all ({build_used}, depth {args.depth}, workers {args.workers or os.cpu_count()}): "
            f"{total_positions / seconds:.1f} positions judged a second, "
            f"{1000 * total_found / max(1, total_games):.0f} puzzles per thousand games "
            f"({total_found} in {total_games} games)"
        )


def quality(args: argparse.Namespace) -> None:
    from shashki.rules import Game
    from shashki.training.book import read_book
    from shashki.training.mining import MiningOptions, verify

    puzzles = [p for book in args.book for p in read_book(book).puzzles]
    if args.variant:
        puzzles = [p for p in puzzles if p.variant in args.variant.split(",")]
    puzzles = sample(puzzles, args.count, args.seed)
    if args.scan_only:
        scan_quality(args, [p for p in puzzles if p.variant == "international"])
        return
    mined = MiningOptions(depth=args.depth, verify_depth=args.depth + 4)
    # what a puzzle is (a win, the others not near one), a deeper search, no safety margin
    deeper = replace(mined, verify_depth=mined.verify_depth + args.more).plain()
    kept = first_held = 0
    spent = [0.0, 0.0]
    ratios: list[float] = []
    short = 0  # (re-checks under --longer times the mining's: the search ran out of tree)
    failed: dict[str, int] = {}
    for number, puzzle in enumerate(puzzles, 1):
        game = Game(puzzle.variant, puzzle.fen)
        timed = number <= args.timed or args.longer > 0
        mined_time = 0.0
        if timed:  # (the mining's verification again, for the time it takes)
            t = time.perf_counter()
            verify(game, mined)
            mined_time = time.perf_counter() - t
            spent[0] += mined_time
        again, options, took = recheck(game, deeper, mined_time, args)
        if timed:
            spent[1] += took
            ratios.append(took / max(mined_time, 1e-9))
            short += args.longer > 0 and took < args.longer * mined_time
        first = game.move_text(again.line[0], full=True) if again else None
        held = first == puzzle.line[0]
        kept += held
        how = f"{again.score} / {again.second}" if again else "no solution built"
        how += f", depth {options.verify_depth}"
        if timed:
            how += f", {took / max(mined_time, 1e-9):.1f}× ({took:.1f} s)"
        if not held:
            failed[puzzle.variant] = failed.get(puzzle.variant, 0) + 1
            # the first position alone (what ``held`` implies): is its move still the
            # only one that wins, though the line after it is no longer a solution?
            found, second = first_position(game, options)
            alone = found == puzzle.line[0] and found_score(found, second, options)
            first_held += alone
            how += f"; the first position: {found} {second[0]} / {second[1]}"
        if args.verbose:
            print(
                f"{number}. {puzzle.variant} {puzzle.fen} {puzzle.line[0]}: "
                f"{'held' if held else 'FAILED'} ({how}; {puzzle.source})",
                flush=True,
            )
    if ratios:
        ratios.sort()
        print(
            f"re-check / mining's verification, each puzzle: least {ratios[0]:.1f}×, median "
            f"{statistics.median(ratios):.1f}×, most {ratios[-1]:.1f}×"
            + (
                f"; {short} under {args.longer:g}× (their search ran out of tree: "
                f"{args.longest} plies deeper took no longer)"
                if args.longer > 0
                else ""
            ),
            flush=True,
        )
    which = "every one" if args.longer > 0 else f"the first {min(args.timed, len(puzzles))}"
    by_variant = ", ".join(f"{v} {n}" for v, n in sorted(failed.items())) or "none"
    both = kept + first_held
    print(
        f"quality: {kept} of {len(puzzles)} puzzles still unique and winning at depth "
        f"{deeper.verify_depth}{' or deeper (--longer)' if args.longer > 0 else ''}, "
        f"their whole solution built again "
        f"({100 * kept / max(1, len(puzzles)):.1f}%; failed: {by_variant}); "
        f"{both} ({100 * both / max(1, len(puzzles)):.1f}%) with their first move still the "
        f"only one that wins; "
        f"that search took {spent[1] / max(spent[0], 1e-9):.1f}× the time of the mining's "
        f"verification (depth {mined.verify_depth}, confirmed at {mined.verify_depth + 1}; "
        f"timed on {which})",
        flush=True,
    )
    if args.scan:
        scan_quality(args, [p for p in puzzles if p.variant == "international"])


def recheck(game: Any, deeper: Any, mined_time: float, args: argparse.Namespace) -> Any:
    """The verification of ``game`` at ``deeper``'s depth, and with ``--longer`` a ply
    deeper each time until that search alone took ``--longer`` times ``mined_time`` (at
    most ``--longest`` plies deeper than the mining's); the last one's result, options
    and time."""
    from shashki.training.mining import verify

    options = deeper
    while True:
        t = time.perf_counter()
        again = verify(game, options)
        took = time.perf_counter() - t
        if args.longer <= 0 or took >= args.longer * mined_time:
            break
        if options.verify_depth - (args.depth + 4) >= args.longest:
            break
        options = replace(options, verify_depth=options.verify_depth + 1)
    return again, options, took


def first_position(game: Any, options: Any) -> tuple[str, tuple[int, int]]:
    """The best move of ``game``'s position at the options' verifying depth, its score
    and the best of the others' (a fresh search)."""
    from shashki.engine.search import Search

    search = Search(game.variant)
    found = search.search(game, depth=options.verify_depth)
    if found.move is None:
        return "", (0, 0)
    others = [m for m in game.legal_moves() if m != found.move]
    second = search.search(game, depth=options.verify_depth, moves=others).score
    return game.move_text(found.move, full=True), (found.score, second)


def found_score(move: str, scores: tuple[int, int], options: Any) -> bool:
    """Whether the scores say a win (two men) and no other move near one."""
    return bool(move) and scores[0] >= options.win and scores[1] <= options.other


def sample(puzzles: list[Any], count: int, seed: int) -> list[Any]:
    """``count`` of the puzzles, drawn with ``seed`` in each variant in proportion to its
    share (all of them when there are no more)."""
    if len(puzzles) <= count:
        return puzzles
    rng = random.Random(seed)
    chosen = rng.sample(range(len(puzzles)), count)
    return [puzzles[i] for i in sorted(chosen)]


def scan_quality(args: argparse.Namespace, puzzles: list[Any]) -> None:
    """Scan 2.0 (the Hub protocol, version 1) judges each International puzzle: its
    first move must be Scan's best at ``--scan-depth`` and win (two men or more), and
    every other move must not (Scan searching the position after it one ply less)."""
    import shlex
    import subprocess

    from shashki.engine.hub.text import find_move, position_text
    from shashki.rules import Game
    from shashki.rules.game import game_state

    command = shlex.split(args.scan)
    engine = subprocess.Popen(
        command,
        cwd=str(Path(command[0]).parent),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert engine.stdin is not None and engine.stdout is not None

    def send(text: str) -> None:
        engine.stdin.write(text + "\n")  # type: ignore[union-attr]
        engine.stdin.flush()  # type: ignore[union-attr]

    def until(word: str) -> list[str]:
        lines = []
        while True:
            text = engine.stdout.readline()  # type: ignore[union-attr]
            if not text:
                raise SystemExit(f"the engine stopped: {args.scan}")
            lines.append(text.strip())
            if text.split()[:1] == [word]:
                return lines

    def think(game: Game, depth: int) -> tuple[str, int]:
        """Scan's move and score (for the side to move) in ``game``'s position.  A move
        Scan plays at once (the only one, or in an ending of its bitbases the only one
        that keeps the bitbase's value: no score said, or depth 0) is played and the
        position after it asked.  In an ending of its bitbases (``--scan-bb`` pieces or
        fewer) Scan's score is not the bitbase's: at the root it searches with the
        smaller bitbases only, among the moves that keep the value; so there Scan's own
        line is played out to the end of the game, whose result is the score (a draw
        after ``LINE_MOST`` plies)."""
        sign = 1
        first = ""
        side = game.turn
        game = game.copy()
        for _ in range(LINE_MOST):
            send("pos " + position_text(game, version=1))
            send(f"depth {depth}")
            send("go")
            lines = until("move")
            # (a move played at once, the only one, says depth 0 and score 0)
            infos = [t.split() for t in lines if t.startswith("info") and t.split()[1:2] != ["0"]]
            text = lines[-1].split()[1]
            first = first or text
            pos = game_state(game)
            in_bitbases = (pos[0] | pos[1]).bit_count() <= args.scan_bb
            if infos and not in_bitbases:
                return first, sign * int(float(infos[-1][3]))
            game.push(find_move(game, text))
            ended = game.outcome()
            if ended is not None:
                return (
                    first,
                    0 if ended.winner is None else 10000 if ended.winner == side else -10000,
                )
            sign = -sign
        return first, 0

    send("hub")
    until("wait")
    send("set book false")
    send("init")
    until("ready")
    kept = unique_strict = 0
    started = time.perf_counter()
    for number, puzzle in enumerate(puzzles, 1):
        game = Game(puzzle.variant, puzzle.fen)
        best_text, score = think(game, args.scan_depth)
        best = game.move_text(find_move(game, best_text), full=True)
        others = []
        for move in game.legal_moves():
            if game.move_text(move, full=True) == puzzle.line[0]:
                continue
            after = game.copy()
            after.push(move)
            ended = after.outcome()
            if ended is not None:
                others.append(
                    0 if ended.winner is None else 10000 if ended.winner == game.turn else -10000
                )
                continue
            others.append(-think(after, args.scan_depth - 1)[1])
        second = max(others, default=-10000)
        held = best == puzzle.line[0] and score >= 200 and second < 200
        kept += held
        unique_strict += held and second <= 50
        if args.verbose:
            print(
                f"scan {number}. {puzzle.fen} {puzzle.line[0]}: Scan {best} {score}, "
                f"best other {second}: {'held' if held else 'FAILED'}",
                flush=True,
            )
    send("quit")
    engine.wait(10)
    print(
        f"Scan 2.0 at depth {args.scan_depth}: {kept} of {len(puzzles)} International puzzles "
        f"hold (their first move Scan's best, winning two men or more, every other under two "
        f"men; {unique_strict} with every other at half a man or less) "
        f"in {time.perf_counter() - started:.0f} s",
        flush=True,
    )


def first_games(path: Path, count: int) -> str:
    """The text of the first ``count`` games of a PDN file (cut at tag lines)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    out: list[str] = []
    games = 0
    tags = False
    for line in text.splitlines(keepends=True):
        is_tag = line.lstrip().startswith("[")
        if is_tag and not tags:
            games += 1
            if games > count:
                break
        out.append(line)
        if line.strip():
            tags = is_tag
    return "".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    e = sub.add_parser("explorer")
    e.add_argument("--workers", type=int)
    e.add_argument("--answers", type=int, default=2000)
    m = sub.add_parser("mining")
    m.add_argument("--games", type=int, default=40)
    m.add_argument("--workers", type=int)
    m.add_argument("--depth", type=int, default=4)
    m.add_argument(
        "--compiled",
        action="store_true",
        help="use the compiled build (shashki compile); the jobs then run in this process",
    )
    m.add_argument("--keep", type=Path, help="the book to keep the puzzles in")
    q = sub.add_parser("quality")
    q.add_argument("book", nargs="+", help="books of mined puzzles (PDN)")
    q.add_argument("--count", type=int, default=100)
    q.add_argument("--depth", type=int, default=4, help="the depth they were mined at")
    q.add_argument("--more", type=int, default=4, help="plies deeper than their verification")
    q.add_argument("--variant", help="only the puzzles of these variants (ids, by commas)")
    q.add_argument("--seed", type=int, default=1, help="the sample's draw")
    q.add_argument("--verbose", action="store_true", help="each puzzle as it is checked")
    q.add_argument(
        "--timed", type=int, default=10, help="puzzles whose mining verification is timed again"
    )
    q.add_argument(
        "--longer",
        type=float,
        default=0,
        help="deepen each re-check until it alone took this many times the mining's "
        "verification of the same puzzle (every puzzle timed)",
    )
    q.add_argument("--longest", type=int, default=10, help="with --longer: plies deeper at most")
    q.add_argument("--scan", help='Scan 2.0\'s command ("/tmp/scan-2.0/scan hub")')
    q.add_argument("--scan-depth", type=int, default=14)
    q.add_argument(
        "--scan-bb", type=int, default=4, help="the pieces of Scan's bitbases (its bb-size)"
    )
    q.add_argument("--scan-only", action="store_true", help="only Scan's judgement")
    args = parser.parse_args()
    if args.what == "mining" and args.compiled:
        args.workers = 1
    if args.what != "quality" and not CORPUS.is_dir():
        print(f"skipped: {CORPUS} is absent (SHASHKI_SHARED names the shared folder)")
        return
    {"explorer": explorer, "mining": mining, "quality": quality}[args.what](args)


if __name__ == "__main__":
    main()
