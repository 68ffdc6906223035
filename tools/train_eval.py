"""Train the pattern part of a diagonal game's evaluation (see ``shashki.engine.patterns``).

    python tools/train_eval.py play --variant international --games 1000 --out data.jsonl
    python tools/train_eval.py corpus --variant international --out master.jsonl DIR_OR_FILE...
    python tools/train_eval.py fit --variant international data.jsonl master.jsonl

``play`` makes training games: shashki against itself at a few thousand nodes a move, each
game from its own random opening.  ``corpus`` reads published game records (they stay
where they are; only the positions and results go into the output).  Both write one JSON
line per game: the result for White (1, 1/2, 0) and the quiet positions of the game (no
capture for the side to move), each with the search's score when there was one.

``teach`` has a stronger engine score those positions (Scan 2.0 through the Hub
protocol, version 1, at a fixed depth: Scan writes its score only for depths of 12 and
more), so that ``fit --blend 1`` fits the patterns to the teacher's judgement instead of
the games' results (``--scale`` puts the teacher's scores on the evaluation's scale):

    python tools/train_eval.py teach --engine "/tmp/scan-2.0/scan hub" --depth 12 \
        --out taught.jsonl data.jsonl master.jsonl

``fit`` fits the pattern weights and writes ``src/shashki/engine/patterns/VARIANT.bin``
(every position also enters mirrored: colours swapped and the board turned round).  By
default (``--method lsq``) it is ridge least squares of the teacher's score (times
``--scale``, clipped to ``--clip``) on the hand evaluation plus the patterns, solved by
conjugate gradients; ``--phases 2`` (the default) fits a table for the start and one for
the end, blended by the men left, and ``--hand-weights`` fits the hand evaluation's weight
at the start and at the end too; ``--shape blocks`` uses windows of 4x4 squares instead
of two ranks.  ``--method logistic`` fits the game results (or a blend with the scores,
``--blend``) by logistic regression instead.  It needs numpy (in the ``bench`` extra).
The shipped international table:

    python tools/train_eval.py fit --shape blocks --scale 1.16 --clip 800 --hand-weights \
        taught.jsonl ...
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from shashki import native

native.use()  # the compiled build, if there is one of these sources (SHASHKI_PURE=1: not)

from shashki.engine import Search
from shashki.engine.patterns import SHAPES
from shashki.rules import Game
from shashki.rules.game import game_state


def _quiet(game: Game) -> bool:
    caps, movable = game.variant.generator.horizon(game_state(game))
    return movable and not caps


def play_one(job: tuple[str, int, int]) -> str:
    variant, seed, nodes = job
    rng = random.Random(seed)
    game = Game(variant)
    for _ in range(rng.randrange(4, 9)):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(rng.choice(moves))
    engine = Search(variant, table_size=200_000)
    positions: list[list[int]] = []
    result: float | None = None
    streak = 0
    while game.outcome() is None and game.ply < 300:
        pos = game_state(game)
        r = engine.search(game, nodes=nodes)
        if r.move is None:
            break
        score = r.score if len(game.legal_moves()) > 1 else None
        if _quiet(game) and score is not None and abs(score) < 5000:
            positions.append([pos[0], pos[1], pos[2], pos[3], score])
        # adjudicate a game both sides see as decided
        white_score = None if score is None else (score if pos[3] == 0 else -score)
        if white_score is not None and abs(white_score) >= 600:
            streak = streak + 1 if streak * white_score >= 0 else 0
            if streak >= 6:
                result = 1.0 if white_score > 0 else 0.0
                break
        else:
            streak = 0
        game.push(r.move)
    if result is None:
        out = game.outcome()
        if out is None or out.winner is None:
            result = 0.5
        else:
            result = 1.0 if int(out.winner) == 0 else 0.0
    return json.dumps({"result": result, "positions": positions})


def cmd_play(args: argparse.Namespace) -> int:
    started = time.time()
    jobs = [(args.variant, args.seed * 100_000 + i, args.nodes) for i in range(args.games)]
    done = 0
    with open(args.out, "a") as out, ProcessPoolExecutor(args.jobs) as pool:
        for line in pool.map(play_one, jobs, chunksize=1):
            out.write(line + "\n")
            out.flush()
            done += 1
            if done % 20 == 0:
                rate = done / (time.time() - started) * 60
                print(f"{done} games, {rate:.1f} a minute", flush=True)
    return 0


def cmd_corpus(args: argparse.Namespace) -> int:
    from shashki.records import read_file

    files: list[Path] = []
    for p in map(Path, args.paths):
        files += sorted(p.rglob("*.pdn")) if p.is_dir() else [p]
    n = 0
    with open(args.out, "w") as out:
        for f in files:
            for rec in read_file(f, args.variant):
                result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(rec.header("Result"))
                if result is None or rec.variant is None or rec.variant.id != args.variant:
                    continue
                try:
                    game = rec.start()
                except Exception:
                    continue
                positions = []
                for i, mv in enumerate(rec.mainline_moves()):
                    if i >= 8 and _quiet(game):
                        pos = game_state(game)
                        positions.append([pos[0], pos[1], pos[2], pos[3], None])
                    game.push(mv)
                out.write(json.dumps({"result": result, "positions": positions}) + "\n")
                n += 1
    print(f"{n} games")
    return 0


def cmd_teach(args: argparse.Namespace) -> int:
    """Score every position of the files by the teacher engine (side to move's view, in
    hundredths of a man); positions it scores as won or lost (a bitbase, a mate) or
    answers without a score are left out."""
    import shlex
    import subprocess

    from shashki.rules import find_variant

    geo = find_variant(args.variant).board
    numbers = range(1, len(geo.by_number))
    command = shlex.split(args.engine)
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
                raise SystemExit(f"the engine stopped: {args.engine}")
            lines.append(text.strip())
            if text.split()[:1] == [word]:
                return lines

    send("hub")
    until("wait")
    send("set book false")
    send("init")
    until("ready")
    kept = dropped = 0
    started = time.time()
    with open(args.out, "w") as out:
        for name in args.files:
            for line in open(name):
                g = json.loads(line)
                taught = []
                for w, b, k, turn, _score in g["positions"]:
                    board = ["w" if turn == 0 else "b"]
                    for n in numbers:
                        bit = 1 << geo.by_number[n]
                        if w & bit:
                            board.append("W" if k & bit else "w")
                        elif b & bit:
                            board.append("B" if k & bit else "b")
                        else:
                            board.append("e")
                    send("pos " + "".join(board))
                    send(f"depth {args.depth}")
                    send("go")
                    infos = [t for t in until("move") if t.startswith("info")]
                    parts = infos[-1].split() if infos else []
                    try:
                        score = int(float(parts[3]))
                    except (IndexError, ValueError):
                        dropped += 1
                        continue
                    if abs(score) >= args.cap:
                        dropped += 1
                        continue
                    taught.append([w, b, k, turn, score])
                    kept += 1
                out.write(json.dumps({"result": g["result"], "positions": taught}) + "\n")
                if kept and kept % 5000 < len(taught):
                    rate = kept / (time.time() - started)
                    print(f"{kept} positions, {rate:.0f} a second", flush=True)
    send("quit")
    engine.wait(5)
    print(f"{kept} positions scored, {dropped} left out")
    return 0


def cmd_fit(args: argparse.Namespace) -> int:
    import numpy as np

    from shashki.engine import patterns
    from shashki.engine.evaluate import diagonal_evaluator
    from shashki.rules import find_variant

    if args.hand_weights and (args.phases == 1 or args.method != "lsq"):
        raise SystemExit("--hand-weights needs the two-phase tables and --method lsq")
    variant = find_variant(args.variant)
    geo = variant.board
    hand = diagonal_evaluator(variant, patterns=False)
    pats = patterns.Patterns(geo, args.width, args.shape)
    rows: list[list[int]] = []
    base: list[float] = []
    target: list[float] = []
    scores: list[float] = []
    games: list[int] = []
    phase: list[float] = []
    start = game_state(Game(variant))
    start_men = ((start[0] | start[1]) & ~start[2]).bit_count()
    gid = 0
    for name in args.files:
        for line in open(name):
            g = json.loads(line)
            res = g["result"]
            gid += 1
            for w, b, k, turn, score in g["positions"]:
                if k and args.no_kings:
                    continue
                wm, bm = w & ~k, b & ~k
                h = hand((w, b, k, 0, None))
                s = float("nan") if score is None else (score if turn == 0 else -score)
                s *= args.scale
                ph = patterns.phase_of((wm | bm).bit_count(), start_men)
                # the position and its mirror (colours swapped, board turned round)
                for mirror in (False, True):
                    games.append(gid)
                    phase.append(ph)
                    if mirror:
                        mw, mb = pats.rotate(bm), pats.rotate(wm)
                        rows.append(pats.indices(mw, mb))
                        base.append(-h)
                        target.append(1.0 - res)
                        scores.append(-s)
                    else:
                        rows.append(pats.indices(wm, bm))
                        base.append(h)
                        target.append(res)
                        scores.append(s)
    X = np.array(rows, dtype=np.int64)
    H = np.array(base, dtype=np.float64)
    Y = np.array(target, dtype=np.float64)
    S = np.array(scores, dtype=np.float64)
    F = np.array(phase, dtype=np.float64)[:, None]
    n, npat = X.shape
    sets = args.phases
    print(f"{n} positions (with mirrors), {npat} patterns of {pats.entries} entries")
    # hold out every twentieth game to watch over-fitting
    hold = np.array(games, dtype=np.int64) % 20 == 0
    tr = ~hold
    offsets = np.arange(npat, dtype=np.int64) * pats.entries
    flat = X + offsets
    size = npat * pats.entries
    if args.method == "lsq":
        W, factors = fit_least_squares(args, flat, H, S, F, hold, size)
        return write_tables(args, variant, pats, W, sets, size, factors)
    # the scale of the logistic: fitted on the hand evaluation alone
    best = None
    for k in np.linspace(0.002, 0.03, 57):
        p = 1 / (1 + np.exp(-k * H))
        err = float(np.mean((p - Y) ** 2))
        if best is None or err < best[0]:
            best = (err, float(k))
    err0, K = best
    print(f"hand evaluation alone: K={K:.4f}, mean squared error {err0:.5f}")
    if args.blend:
        have = ~np.isnan(S)
        Y = np.where(
            have,
            (1 - args.blend) * Y + args.blend / (1 + np.exp(-K * np.nan_to_num(S))),
            Y,
        )
    rng = np.random.default_rng(1)
    # with two sets: the start's (weighted by the phase) and the end's (by the rest)
    W = np.zeros(sets * size)

    def value(rows: np.ndarray) -> np.ndarray:
        if sets == 1:
            return W[flat[rows]].sum(axis=1)
        f = F[rows]
        return (f * W[flat[rows]] + (1 - f) * W[size + flat[rows]]).sum(axis=1)

    m = np.zeros_like(W)
    v = np.zeros_like(W)
    lr, b1, b2 = args.lr, 0.9, 0.999
    idx_tr = np.nonzero(tr)[0]
    batch = args.batch
    step = 0

    def loss(mask: np.ndarray) -> float:
        e = H[mask] + value(mask)
        p = 1 / (1 + np.exp(-K * e))
        return float(np.mean((p - Y[mask]) ** 2))

    def agreement(mask: np.ndarray) -> float:
        """The correlation of the evaluation with the teacher's scores."""
        have = mask & ~np.isnan(S)
        if not have.any():
            return float("nan")
        return float(np.corrcoef(H[have] + value(have), S[have])[0, 1])

    print(f"start: train {loss(tr):.5f}  held out {loss(hold):.5f}")
    print(f"correlation with the teacher, held out: {agreement(hold):.4f}")
    best_w, best_held = W.copy(), loss(hold)
    for epoch in range(args.epochs):
        rng.shuffle(idx_tr)
        for i in range(0, len(idx_tr), batch):
            bi = idx_tr[i : i + batch]
            fb = flat[bi]
            e = H[bi] + value(bi)
            p = 1 / (1 + np.exp(-K * e))
            d = 2 * (p - Y[bi]) * p * (1 - p) * K / len(bi)
            grad = np.zeros_like(W)
            if sets == 1:
                np.add.at(grad, fb.ravel(), np.repeat(d, npat))
            else:
                f = F[bi, 0]
                np.add.at(grad, fb.ravel(), np.repeat(d * f, npat))
                np.add.at(grad, size + fb.ravel(), np.repeat(d * (1 - f), npat))
            grad += args.l2 * W
            step += 1
            m = b1 * m + (1 - b1) * grad
            v = b2 * v + (1 - b2) * grad * grad
            mh = m / (1 - b1**step)
            vh = v / (1 - b2**step)
            W -= lr * mh / (np.sqrt(vh) + 1e-9)
        held_loss = loss(hold)
        print(
            f"epoch {epoch + 1}: train {loss(tr):.5f}  held out {held_loss:.5f}"
            f"  correlation {agreement(hold):.4f}",
            flush=True,
        )
        if held_loss < best_held:
            best_w, best_held = W.copy(), held_loss
    W = best_w  # the epoch that did best on the held-out games
    return write_tables(args, variant, pats, W, sets, size, None)


def write_tables(
    args: argparse.Namespace,
    variant: object,
    pats: object,
    W: object,
    sets: int,
    size: int,
    factors: tuple[float, float] | None,
) -> int:
    """Write the fitted tables, made exactly antisymmetric (see :func:`symmetric`)."""
    import numpy as np

    from shashki.engine import patterns

    W = np.concatenate([symmetric(pats, W[i * size : (i + 1) * size]) for i in range(sets)])  # type: ignore[index]
    weights = np.clip(np.round(W), -32000, 32000).astype(np.int64).tolist()
    path = Path(args.out) if args.out else patterns.weights_path(variant.id)  # type: ignore[attr-defined]
    hand = None
    if factors is not None:
        hand = (round(factors[0] * patterns.ONE), round(factors[1] * patterns.ONE))
    patterns.save(path, pats, weights, hand=hand)  # type: ignore[arg-type]
    used = int(np.count_nonzero(np.round(W)))
    print(f"wrote {path} ({used} of {len(weights)} entries not zero)")
    return 0


def fit_least_squares(
    args: argparse.Namespace,
    flat: object,
    H: object,
    S: object,
    F: object,
    hold: object,
    size: int,
) -> tuple[object, tuple[float, float] | None]:
    """Ridge least squares of the teacher's (scaled, clipped) score on the patterns, by
    conjugate gradients (CGLS; numpy only): the patterns learn what the hand evaluation
    misses.  With ``--hand-weights`` the hand evaluation's weight at the start and at the
    end of the game is fitted too (two more unknowns, barely damped)."""
    import numpy as np

    flat = np.asarray(flat)
    H, S, F, hold = (np.asarray(a) for a in (H, S, F, hold))
    phase = F[:, 0]
    have = ~np.isnan(S)
    S = np.clip(np.nan_to_num(S), -args.clip, args.clip)
    n, npat = flat.shape
    sets = args.phases
    rows = np.repeat(np.arange(n), npat * sets)
    if sets == 1:
        cols = flat.ravel()
        vals = np.ones(n * npat)
    else:
        cols = np.concatenate([flat, size + flat], axis=1).ravel()
        vals = np.concatenate(
            [
                np.repeat(phase[:, None], npat, axis=1),
                np.repeat(1 - phase[:, None], npat, axis=1),
            ],
            axis=1,
        ).ravel()
    m = sets * size
    y = S - H  # what the patterns (and the hand weights, as corrections to 1) explain
    damp = np.full(m, args.damp)
    hand = args.hand_weights
    if hand:
        # two more columns, barely damped: the hand evaluation weighted by the phase and
        # by the rest
        rows = np.concatenate([rows, np.arange(n), np.arange(n)])
        cols = np.concatenate([cols, np.full(n, m), np.full(n, m + 1)])
        vals = np.concatenate([vals, H * phase, H * (1 - phase)])
        damp = np.concatenate([damp, [1e-3, 1e-3]])
        m += 2
    train = have & ~hold
    keep = train[rows]
    index = np.cumsum(train) - 1
    R, C, V = index[rows[keep]], cols[keep], vals[keep]
    nt = int(train.sum())
    yt = y[train]

    def times(v: np.ndarray) -> np.ndarray:
        return np.bincount(R, weights=V * v[C], minlength=nt)

    def back(r: np.ndarray) -> np.ndarray:
        return np.bincount(C, weights=V * r[R], minlength=m)

    d2 = damp * damp
    x = np.zeros(m)
    r = yt.copy()
    g = back(r)
    p = g.copy()
    gamma = float(g @ g)
    for step in range(args.iterations):
        q = times(p)
        alpha = gamma / float(q @ q + (d2 * p) @ p)
        x += alpha * p
        r -= alpha * q
        g = back(r) - d2 * x
        g2 = float(g @ g)
        if (step + 1) % 50 == 0:
            print(f"iteration {step + 1}: gradient {g2 / gamma:.2e}", flush=True)
        if g2 < 1e-12 * gamma:
            break
        p = g + (g2 / gamma) * p
        gamma = g2

    def full(v: np.ndarray) -> np.ndarray:
        return np.bincount(rows, weights=vals * v[cols], minlength=n)

    fitted = H + full(x)
    for name, mask in (("train", train), ("held out", have & hold)):
        print(
            f"correlation with the teacher, {name}: hand alone "
            f"{np.corrcoef(H[mask], S[mask])[0, 1]:.4f}, fitted "
            f"{np.corrcoef(fitted[mask], S[mask])[0, 1]:.4f}"
        )
    factors = None
    if hand:
        factors = (1 + float(x[-2]), 1 + float(x[-1]))
        print(
            f"hand evaluation's weight: {factors[0]:.3f} at the start, {factors[1]:.3f} at the end"
        )
    return x[: sets * size], factors


def symmetric(pats: object, W: object) -> object:
    """The tables made exactly antisymmetric: a window's value equals minus the value of
    its image with the board turned round and the colours swapped (the start position
    and every other symmetric one score 0)."""
    import numpy as np

    n = pats.entries  # type: ignore[attr-defined]
    windows = pats.windows  # type: ignore[attr-defined]
    where = {frozenset(w): i for i, w in enumerate(windows)}
    out = np.array(W, dtype=np.float64)
    for i, window in enumerate(windows):
        image = frozenset(pats.rotate(1 << p).bit_length() - 1 for p in window)  # type: ignore[attr-defined]
        j = where[image]
        for index in range(n):
            wm = bm = 0
            for k, p in enumerate(window):
                trit = index // 3**k % 3
                if trit == 1:
                    wm |= 1 << p
                elif trit == 2:
                    bm |= 1 << p
            mirrored = pats.indices(pats.rotate(bm), pats.rotate(wm))[j]  # type: ignore[attr-defined]
            out[i * n + index] = (W[i * n + index] - W[j * n + mirrored]) / 2  # type: ignore[index]
    return out


def patterns_width() -> int:
    from shashki.engine.patterns import WIDTH

    return WIDTH


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("play")
    a.add_argument("--variant", default="international")
    a.add_argument("--games", type=int, default=100)
    a.add_argument("--nodes", type=int, default=3000)
    a.add_argument("--jobs", type=int, default=2)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--out", required=True)
    a.set_defaults(fn=cmd_play)
    c = sub.add_parser("corpus")
    c.add_argument("--variant", default="international")
    c.add_argument("--out", required=True)
    c.add_argument("paths", nargs="+")
    c.set_defaults(fn=cmd_corpus)
    t = sub.add_parser("teach")
    t.add_argument("--variant", default="international")
    t.add_argument("--engine", required=True, help="a Hub version 1 engine: its command")
    t.add_argument("--depth", type=int, default=12, help="Scan 2.0 scores depths of 12 up")
    t.add_argument("--cap", type=int, default=1000, help="leave out scores this large")
    t.add_argument("--out", required=True)
    t.add_argument("files", nargs="+")
    t.set_defaults(fn=cmd_teach)
    f = sub.add_parser("fit")
    f.add_argument("--variant", default="international")
    f.add_argument("--epochs", type=int, default=8)
    f.add_argument("--lr", type=float, default=0.5)
    f.add_argument("--l2", type=float, default=1e-8)
    f.add_argument("--batch", type=int, default=256)
    f.add_argument("--out", help="the file to write (default: the one shipped for the variant)")
    f.add_argument(
        "--blend",
        type=float,
        default=0.0,
        help="weight of the search score in the target",
    )
    f.add_argument("--width", type=int, default=patterns_width(), help="squares a window row")
    f.add_argument(
        "--shape",
        choices=SHAPES,
        default="rows",
        help="the windows: rows (two ranks) or blocks (4x4 squares)",
    )
    f.add_argument("--no-kings", action="store_true", help="leave out positions with kings")
    f.add_argument(
        "--phases",
        type=int,
        choices=(1, 2),
        default=2,
        help="one set of tables, or two (the start's and the end's, blended by the men left)",
    )
    f.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="multiply the scores by this (a teacher's scale to the evaluation's)",
    )
    f.add_argument(
        "--method",
        choices=("lsq", "logistic"),
        default="lsq",
        help="least squares on the teacher's scores, or logistic regression on the results",
    )
    f.add_argument("--damp", type=float, default=3.0, help="(lsq) ridge damping")
    f.add_argument("--clip", type=float, default=1500.0, help="(lsq) scores clipped to this")
    f.add_argument("--iterations", type=int, default=300, help="(lsq) conjugate gradient steps")
    f.add_argument(
        "--hand-weights",
        action="store_true",
        help="(lsq) fit the hand evaluation's weight too",
    )
    f.add_argument("files", nargs="+")
    f.set_defaults(fn=cmd_fit)
    args = p.parse_args(argv)
    return int(args.fn(args))


if __name__ == "__main__":
    raise SystemExit(main())
