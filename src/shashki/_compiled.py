"""What the sources say to mypyc, for a compiled build of the search (``benchmarks/compiled.py``).

shashki runs as pure Python; mypyc's marks are no-ops there, and ``mypy_extensions`` (which
comes with mypy) is not needed to run it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # the decorator only marks a class for mypyc

        def mypyc_attr(*_attrs, **_kwattrs):
            return lambda cls: cls
