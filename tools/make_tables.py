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
import hashlib
import lzma
from pathlib import Path

from shashki.engine import endings
from shashki.engine.endings import Material
from shashki.rules import Variant, all_variants, find_variant

FOLDER = Path(__file__).resolve().parent.parent / "src" / "shashki" / "engine" / "tables"


#: The endings of four pieces shipped of the 8x8 games of 64 squares, by game: those with
#: at most this many men (a set closed under captures and crownings, which only lose
#: men).  The others (up to 25.7 million positions; about 6 s of a core a million
#: positions, compiled) are made by ``shashki endings build VARIANT --pieces 4``, or in
#: a worker the first time they arise where they hold at most ``endings.MAX_POSITIONS``.
SIXTY_FOUR = {"turkish": 4, "tama": 4, "tama-armenian": 4}


def wanted() -> dict[str, list[tuple[int, int, int, int]]]:
    """The tables shipped: on the 10x10 board every ending of 3 pieces and three kings
    against one; on the 8x8 boards every ending of 3 pieces, and every ending of 4 on
    the boards of 32 squares; on those of 64, those :data:`SIXTY_FOUR` names (of 4
    pieces, those beyond ``endings.MAX_POSITIONS`` too: ``endings.made_ahead``)."""
    out: dict[str, list[tuple[int, int, int, int]]] = {}
    for variant in all_variants():
        if not endings.plain(variant):
            continue
        size = (variant.board.width, variant.board.height)
        if size == (10, 10) and variant.id == "international":
            out[variant.id] = [*endings.materials(variant, 3), (3, 0, 1, 0)]
        elif size == (8, 8) and variant.board.square_count == 32:
            out[variant.id] = endings.materials(variant, 4)
        elif size == (8, 8):
            men = SIXTY_FOUR.get(variant.id, -1)
            out[variant.id] = [
                m for m in endings.materials(variant, 4) if sum(m) < 4 or m[1] + m[3] <= men
            ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--missing", action="store_true")
    parser.add_argument("variants", nargs="*")
    args = parser.parse_args()
    FOLDER.mkdir(exist_ok=True)
    order = list(wanted().items())
    digests: dict[tuple[str, Material], str | None] = {}
    for n, (vid, materials) in enumerate(order):
        if args.variants and vid not in args.variants:
            continue
        variant = find_variant(vid)
        for material in materials:
            if args.check:
                if endings.shipped_values(variant, material) is None:
                    print(f"{vid} {endings.material_text(material)}: missing or of other rules")
                continue
            if args.missing and endings.shipped_values(variant, material) is not None:
                continue
            endings.build_one(variant, material)
            values = endings.table_values(variant, material)
            form = endings.shipped_forms(variant, material, values)
            if form is None:
                continue  # (read off the one of the colours swapped)
            name, body = form
            same = _same_as([find_variant(v) for v, _ in order[:n]], material, values, digests)
            if same is not None:
                name = endings.shipped_same_name(variant, material)
                body = endings.shipped_same_form(variant, material, same, values)
            for old in (
                endings.shipped_name(variant, material),
                endings.shipped_half_name(variant, material),
                endings.shipped_same_name(variant, material),
            ):
                (FOLDER / old).unlink(missing_ok=True)  # (the other forms, if any)
            path = FOLDER / name
            path.write_bytes(
                body if same is not None else lzma.compress(body, preset=9 | lzma.PRESET_EXTREME)
            )
            print(f"{name}: {len(body)} -> {path.stat().st_size} bytes", flush=True)


def _same_as(
    earlier: list[Variant],
    material: Material,
    values: bytes,
    digests: dict[tuple[str, Material], str | None],
) -> Variant | None:
    """The first of the ``earlier`` games whose table of ``material`` is shipped in a
    file of its own (not naming another game's) with the same values, or None."""
    digest = hashlib.sha256(values).hexdigest()
    for other in earlier:
        own = any(
            (FOLDER / name(other, material)).is_file()
            for name in (endings.shipped_name, endings.shipped_half_name)
        )
        if not own or (other.board.width, other.board.height) != (8, 8):
            continue
        key = (other.id, material)
        if key not in digests:
            got = endings.shipped_values(other, material)
            digests[key] = None if got is None else hashlib.sha256(got).hexdigest()
        if digests[key] == digest:
            return other
    return None


if __name__ == "__main__":
    main()
