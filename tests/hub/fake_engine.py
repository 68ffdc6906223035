"""A small Hub engine for the tests, misbehaving on request.

    python fake_engine.py MODE

MODE: ``ok`` (Hub version 2, plays the first legal move), ``v1`` (Scan 2.0's version 1
dialect), ``crash`` (exits when asked for a move), ``hang`` (never answers a move),
``illegal`` (answers a move that is not legal), ``mute`` (never answers ``hub``),
``russian`` (version 2, offers the variant parameter with ``russian`` only).

The hostile ones: ``endless`` (asked for a move, writes one line that never ends),
``flood`` (asked for a move, writes ``info`` lines without end), ``paramflood``
(answers ``hub`` with ``param`` lines without end), ``error`` (answers a move with an
``error`` line, then nothing), ``v1error`` (the same in version 1's words),
``stderr`` (writes a few hundred lines of noise on its standard error, then crashes
when asked for a move), ``stderrflood`` (plays as ``ok`` while its standard error never
stops), ``escape`` (its ``id name`` holds escape sequences and control characters).
``strict`` plays as ``ok`` but answers an ``error`` to a ``level`` in words the Hub
specification does not have.

It uses shashki's rules to find its legal moves: it is a test double, not an engine.
"""

from __future__ import annotations

import sys
import threading
import time

from shashki.engine.hub.text import find_move, move_text, parse_line, parse_position
from shashki.rules import find_variant

#: The name of ``escape``: a window title, a screen clear, a colour, a right-to-left
#: override, a C1 CSI, a carriage return, a bell, DEL and a backspace, around the
#: letters of "fake-escape".
ESCAPE_NAME = "fake\x1b]0;pwned\x07-\x1b[2J\x1b[31mes\u202eca\rpe\x9b1m\x07\x7f\x08"


def flood(data: bytes) -> None:
    """Write ``data`` to stdout again and again until the reader goes away."""
    block = data * max(1, 65536 // len(data))
    try:
        while True:
            sys.stdout.buffer.write(block)
            sys.stdout.buffer.flush()
    except (BrokenPipeError, OSError):
        sys.exit(0)


def stderr_forever() -> None:
    line = b"debug: " + b"noise " * 20 + b"\n"
    try:
        while True:
            sys.stderr.buffer.write(line * 200)
            sys.stderr.buffer.flush()
    except (BrokenPipeError, OSError):
        return


def main(mode: str) -> int:
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    variant = find_variant("russian" if mode == "russian" else "international")
    game = None
    v1 = mode in ("v1", "v1error")
    if mode == "stderr":
        for n in range(300):
            print(f"noise line {n}", file=sys.stderr, flush=True)
        print("x" * 100_000, file=sys.stderr, flush=True)  # one very long line
        print("fatal: the \x1b[31mnet\x1b[0m file is missing", file=sys.stderr, flush=True)
    if mode == "stderrflood":
        threading.Thread(target=stderr_forever, daemon=True).start()
    for raw in sys.stdin:
        text = raw.strip()
        command, args = parse_line(text) if not v1 else (text.split(" ", 1)[0], {})
        out: list[str] = []
        if command == "hub":
            if mode == "mute":
                continue
            if mode == "paramflood":
                flood(b'param name=hash value=64 type=int min=1 max="65536"\n')
            if v1:  # (as Scan 2.0 introduces itself)
                out.append(f"fake {mode} by nobody")
                out.append(f"name fake-{mode}")
            else:
                name = ESCAPE_NAME if mode == "escape" else "fake-" + mode
                out.append(f'id name="{name}" version=1.0')
                if mode == "russian":
                    out.append('param name=variant value=russian type=enum values="russian"')
            out.append("wait")
        elif command == "set-param" and args.get("name") == "variant":
            variant = find_variant(args["value"])
        elif command == "init":
            out.append("ready")
        elif command == "level" and mode == "strict":
            unknown = set(args) - {
                "move-time",
                "depth",
                "nodes",
                "infinite",
                "moves",
                "time",
                "inc",
            }
            if unknown:
                out.append(f'error message="unknown level {" ".join(sorted(unknown))}"')
        elif command == "pos":
            if v1:
                game = parse_position(variant, text.split(" ", 1)[1])
            else:
                game = parse_position(variant, args["pos"])
                for token in args.get("moves", "").split():
                    game.push(find_move(game, token))
        elif command == "go":
            if mode in ("crash", "stderr"):
                return 3
            if mode == "hang":
                time.sleep(3600)
            if mode == "endless":
                flood(b"info pv=" + b"31-27 " * 1000)
            if mode == "flood":
                flood(b'info depth=1 score=0.00 nodes=1 time=0.001 nps=0.00 pv="31-27"\n')
            if mode == "error":
                out.append('error message="no \x1b[2Jnet file: cannot search"')
            elif mode == "v1error":
                out.append("error bad position")
            else:
                assert game is not None
                move = move_text(variant, game.legal_moves()[0])
                if mode == "illegal":
                    move = "1-2"
                if v1:
                    out.append("info 1 1.0 0 10 0.00 0.0 " + move)
                    out.append("move " + move)
                else:
                    out.append(
                        'info depth=1 score=0.00 nodes=1 time=0.001 nps=0.00 pv="' + move + '"'
                    )
                    out.append("done move=" + move)
        elif command == "quit":
            return 0
        for line in out:
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "ok"))
