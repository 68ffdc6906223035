"""Served mode: the app shown in a web browser by ``shashki serve``.

The person at the keys of a served app is a visitor, not the owner of the machine it
runs on; so nothing the visitor types or picks may reach beyond shashki's own data:

- no program is started but the engines the owner named in the settings (a ``hub:``
  command typed anywhere is refused: :func:`shashki.session.seats.parse_seat`);
- the files a visitor opens or saves stay inside shashki's games folder
  (:func:`games_file` for a typed name, :func:`inside_games` for a path picked in a
  list): no absolute path, no ``..``, no link leading out;
- settings that name programs or paths are shown, not changed.

Online play: a served app may join a game hosted elsewhere (it only connects out), but
hosting one would listen on a port of the server: the online menu should ask :func:`served`
before it offers that.

``shashki serve`` turns it on for every app it starts with the environment variable
:data:`SERVED_VARIABLE`.  Nothing in the app turns it off: it is read once when this
module is first imported (before the app runs), and an app that finds it on then stays
in served mode even if the variable is later removed.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePath

from ..i18n import _
from ..store.storage import games_dir

#: The environment variable ``shashki serve`` sets for the apps it starts (any value but
#: empty: served mode).
SERVED_VARIABLE = "SHASHKI_SERVED"

#: Served mode as the environment said when this process started (kept: never turned off).
_AT_START = bool(os.environ.get(SERVED_VARIABLE, ""))


def served() -> bool:
    """Whether this app is served to a web browser (a visitor at the keys)."""
    return _AT_START or bool(os.environ.get(SERVED_VARIABLE, ""))


class NotAllowed(ValueError):
    """What a visitor asked for is not allowed in a served app; the message says why in
    one line."""


def _refused() -> NotAllowed:
    return NotAllowed(
        _(
            "in the browser, games are opened and saved only in shashki's games folder: "
            "give a file name, not a path"
        )
    )


def inside_games(path: str | os.PathLike[str], folder: Path | None = None) -> Path:
    """``path`` (picked in the games folder's tree) as a real path inside the games
    folder (``folder``, by default :func:`~shashki.store.storage.games_dir`), every link
    followed; raises :class:`NotAllowed` when it leads anywhere else."""
    root = (folder if folder is not None else games_dir()).resolve()
    try:
        real = Path(path).resolve()
    except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL
        raise _refused() from None
    if real != root and root not in real.parents:
        raise _refused()
    return real


def games_file(name: str, folder: Path | None = None) -> Path:
    """The file a visitor names by typing it (``game.pdn``, ``old/game.pdn``), inside the
    games folder; raises :class:`NotAllowed` for an absolute path, ``~``, ``..``, or a
    name that a link leads out of the folder."""
    text = name.strip()
    if not text or "\x00" in text or text.startswith("~"):
        raise _refused()
    pure = PurePath(text)
    if pure.is_absolute() or pure.anchor or ".." in pure.parts:
        raise _refused()
    root = folder if folder is not None else games_dir()
    inside_games(root / pure, root)  # (a link on the way out is refused)
    return root / pure


__all__ = ["SERVED_VARIABLE", "NotAllowed", "games_file", "inside_games", "served"]
