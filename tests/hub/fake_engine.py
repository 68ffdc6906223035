"""A small Hub engine for the tests, misbehaving on request.

    python fake_engine.py MODE

MODE: ``ok`` (Hub version 2, plays the first legal move), ``v1`` (Scan 2.0's version 1
dialect), ``crash`` (exits when asked for a move), ``hang`` (never answers a move),
``illegal`` (answers a move that is not legal), ``mute`` (never answers ``hub``),
``russian`` (version 2, offers the variant parameter with ``russian`` only).
It uses shashki's rules to find its legal moves: it is a test double, not an engine.
"""

from __future__ import annotations

import sys
import time

from shashki.hub.text import find_move, move_text, parse_line, parse_position
from shashki.rules import find_variant


def main(mode: str) -> int:
    variant = find_variant("russian" if mode == "russian" else "international")
    game = None
    for raw in sys.stdin:
        text = raw.strip()
        command, args = parse_line(text) if mode != "v1" else (text.split(" ", 1)[0], {})
        out: list[str] = []
        if command == "hub":
            if mode == "mute":
                continue
            if mode != "v1":
                out.append("id name=fake-" + mode + " version=1.0")
                if mode == "russian":
                    out.append('param name=variant value=russian type=enum values="russian"')
            out.append("wait")
        elif command == "set-param" and args.get("name") == "variant":
            variant = find_variant(args["value"])
        elif command == "init":
            out.append("ready")
        elif command == "pos":
            if mode == "v1":
                game = parse_position(variant, text.split(" ", 1)[1])
            else:
                game = parse_position(variant, args["pos"])
                for token in args.get("moves", "").split():
                    game.push(find_move(game, token))
        elif command == "go":
            if mode == "crash":
                return 3
            if mode == "hang":
                time.sleep(3600)
            assert game is not None
            move = move_text(variant, game.legal_moves()[0])
            if mode == "illegal":
                move = "1-2"
            if mode == "v1":
                out.append("info 1 1.0 0 10 0.00 0.0 " + move)
                out.append("move " + move)
            else:
                out.append('info depth=1 score=0.00 nodes=1 time=0.001 nps=0.00 pv="' + move + '"')
                out.append("done move=" + move)
        elif command == "quit":
            return 0
        for line in out:
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "ok"))
