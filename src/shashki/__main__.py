"""The ``shashki`` command's entry point (``shashki``, ``python -m shashki``).

It does what the program, not the library, decides for the whole process before any
rule is imported: the engine's compiled build is used when there is a sound one of these
sources (:func:`shashki.native.use`; ``SHASHKI_PURE=1`` says no), then the command line
runs (:func:`shashki.cli.main`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``shashki`` command; its exit status."""
    from . import native

    native.use()  # (before the rules and the engine are imported: see shashki.native)
    from .cli import main as run

    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
