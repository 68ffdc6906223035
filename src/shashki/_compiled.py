"""What the sources say to mypyc, for a compiled build of the search (``benchmarks/compiled.py``).

shashki runs as pure Python, on the standard library alone: there mypyc's marks do nothing.
mypyc reads them as the type checker sees them (``mypy_extensions``, which comes with mypy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*_attrs, **_kwattrs):
        return lambda cls: cls
