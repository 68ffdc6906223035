"""Write the ending tables shashki ships (src/shashki/engine/tables/), made by shashki's
own builder and compressed.

    python tools/make_tables.py            # the set below
    python tools/make_tables.py --check    # say which shipped tables no longer match
    python tools/make_tables.py --missing  # make only those

Each file ``<variant>-<material>.xz`` holds one table exactly as the cache folder keeps it
(a header naming the rules and the material, one byte a position, a SHA-256 checksum),
compressed with xz; ``shashki.engine.endings`` reads it when the cache has no such table,
checking the header and the checksum (a table of other rules, or damaged, is not used).
Of the tables of kings alone, one of each pair of colours is shipped: the other is read off
it.  The tables are made in the
cache folder ($XDG_CACHE_HOME: give it one of its own to make them afresh).
"""

from __future__ import annotations

import argparse
import lzma
from pathlib import Path

from shashki.engine import endings
from shashki.rules import all_variants, find_variant

FOLDER = Path(__file__).resolve().parent.parent / "src" / "shashki" / "engine" / "tables"


def wanted() -> dict[str, list[tuple[int, int, int, int]]]:
    """The tables shipped: on the 10x10 board every ending of 3 pieces and three kings
    against one; on the 8x8 boards every ending of 3 pieces, and of 4 in Russian draughts."""
    out: dict[str, list[tuple[int, int, int, int]]] = {}
    for variant in all_variants():
        if not endings.plain(variant):
            continue
        size = (variant.board.width, variant.board.height)
        if size == (10, 10) and variant.id == "international":
            out[variant.id] = [*endings.materials(variant, 3), (3, 0, 1, 0)]
        elif size == (8, 8):
            pieces = 4 if variant.id == "russian" else 3
            out[variant.id] = endings.materials(variant, pieces)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--missing", action="store_true")
    parser.add_argument("variants", nargs="*")
    args = parser.parse_args()
    FOLDER.mkdir(exist_ok=True)
    for vid, materials in wanted().items():
        if args.variants and vid not in args.variants:
            continue
        variant = find_variant(vid)
        shipped: set[tuple[int, int, int, int]] = set()
        for material in materials:
            swapped = (material[2], material[3], material[0], material[1])
            if endings.mirrors(variant, material) and swapped in shipped:
                continue  # (read off the one of the colours swapped)
            shipped.add(material)
            path = FOLDER / endings.shipped_name(variant, material)
            if args.check:
                if endings.shipped_values(variant, material) is None:
                    print(f"{path.name}: missing or of other rules")
                continue
            if args.missing and endings.shipped_values(variant, material) is not None:
                continue
            endings.build_one(variant, material)
            raw = endings.cache_file(variant, material).read_bytes()
            path.write_bytes(lzma.compress(raw, preset=9 | lzma.PRESET_EXTREME))
            print(f"{path.name}: {len(raw)} -> {path.stat().st_size} bytes", flush=True)


if __name__ == "__main__":
    main()
