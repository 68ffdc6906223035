"""The API reference of the library, made from the docstrings by pdoc.

    pip install -e '.[docs]'
    python tools/api.py                    # HTML in build/api/ (open build/api/index.html)
    python tools/api.py --out DIR

It documents what a script uses: ``shashki`` (games, moves, variants, records) and the
packages under it, the rules, the records, the engine and the Hub client among them; the
terminal app, the command line and the online and served front ends are programs, not
library, and are left out (:data:`LEFT_OUT`). The HTML is not kept in the repository:
make it again after a change.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

#: The modules and packages not documented: front ends and the machinery of the command
#: line and the compiled build.
LEFT_OUT = [
    "shashki.app",
    "shashki.commands",
    "shashki.cli",
    "shashki.__main__",
    "shashki.online",
    "shashki.serve",
    "shashki.compiling",
    "shashki.native",
]


def make(out: Path, names: list[str] | None = None) -> Path:
    """Write the reference of ``names`` (every module documented: :func:`modules`) into
    ``out``; the path of its first page."""
    import pdoc
    import pdoc.render

    pdoc.render.configure(
        docformat="restructuredtext",
        footer_text="shashki",
        search=True,
        show_source=True,
    )
    specs = own_specs(names or modules())
    for name in specs:
        name_tuple_constructors(importlib.import_module(name))
    # the programs stay out even where a package's walk would reach them
    left_out = [f"!{re.escape(n)}(\\.|$)" for n in LEFT_OUT]
    pdoc.pdoc(*specs, *left_out, output_directory=out)
    return out / "index.html"


def own_specs(names: list[str]) -> list[str]:
    """``names`` without those a package before them already brings: pdoc documents a
    package's modules with it (those its ``__all__`` names, or all of them), and warns of a
    module named twice."""
    from pdoc.extract import walk_specs

    specs: list[str] = []
    brought: set[str] = set()
    for name in names:
        if name not in brought:
            specs.append(name)
            brought.update(walk_specs([name]))
    return specs


def name_tuple_constructors(module: ModuleType) -> None:
    """Give the constructor of each named tuple of ``module`` the module it is written in.

    ``typing.NamedTuple`` makes ``__new__`` in a module of its own (``namedtuple_Piece``),
    so pdoc, which reads a signature's annotations in the function's module, cannot
    resolve them (``Color | None`` for ``Piece``) and warns.
    """
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and issubclass(value, tuple)
            and hasattr(value, "_fields")
            and value.__module__ == module.__name__
            and value.__new__.__module__.startswith("namedtuple_")
        ):
            value.__new__.__module__ = module.__name__


def modules() -> list[str]:
    """Every module of the package documented: all but :data:`LEFT_OUT` and the private
    ones (named with an underscore). pdoc, given the package alone, would follow its
    ``__all__`` and leave out the packages under it."""
    import pkgutil

    import shashki

    found = ["shashki"]
    for info in pkgutil.walk_packages(shashki.__path__, "shashki."):
        left_out = any(info.name == n or info.name.startswith(n + ".") for n in LEFT_OUT)
        private = any(part.startswith("_") for part in info.name.split("."))
        if not left_out and not private:
            found.append(info.name)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "api")
    args = parser.parse_args(argv)
    try:
        import pdoc  # noqa: F401
    except ImportError:
        print("api: pdoc is not installed (pip install -e '.[docs]')", file=sys.stderr)
        return 2
    print(f"api: {make(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
