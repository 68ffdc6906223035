"""Served mode: the app shown in a web browser by ``shashki serve``.

The person at the keys of a served app is a visitor, not the owner of the machine it
runs on; so nothing the visitor types or picks may reach beyond shashki's own data:

- no program is started but the engines the owner named in the settings (a ``hub:``
  command typed anywhere is refused: :func:`shashki.session.seats.parse_seat`);
- the files a visitor opens or saves stay inside shashki's games folder
  (:func:`games_file` for a typed name, :func:`inside_games` for a path picked in a
  list): no absolute path, no ``..``, no link leading out;
- settings that name programs or paths are shown, not changed.

Online play: hosting a game would listen on a port of the server, so a served app never
hosts; joining one connects from the server to whatever address the visitor types (a
scanner of the owner's network), so it is off unless the owner passed ``shashki serve
--allow-join`` (:func:`join_allowed`, the variable :data:`JOIN_VARIABLE`), and then every
failure reads the same after the same time (:data:`JOIN_SECONDS`).

A visitor's terminal is at most :data:`MOST_COLUMNS` by :data:`MOST_ROWS` cells
(:func:`terminal_size`): the server bounds what the page asks for, and the app's driver
bounds it again.

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

#: The environment variable ``shashki serve --allow-join`` sets: a visitor may join a game
#: hosted elsewhere.
JOIN_VARIABLE = "SHASHKI_SERVED_JOIN"
#: Seconds every failure to join takes in a served app (the longest a join may take
#: there): an open port, a closed one, a host that says no all read the same then.
JOIN_SECONDS = 10.0

#: The largest terminal a visitor gets (a 4K screen at a small font is 400 by 120); its
#: memory stays some tens of megabytes.
MOST_COLUMNS = 500
MOST_ROWS = 200
#: The size of a terminal whose size is not said.
DEFAULT_SIZE = (80, 24)

#: Served mode as the environment said when this process started (kept: never turned off).
_AT_START = bool(os.environ.get(SERVED_VARIABLE, ""))


def served() -> bool:
    """Whether this app is served to a web browser (a visitor at the keys)."""
    return _AT_START or bool(os.environ.get(SERVED_VARIABLE, ""))


def join_allowed() -> bool:
    """Whether this app may join a game hosted elsewhere: always, unless it is served to
    a browser and its owner did not allow it (``shashki serve --allow-join``)."""
    return not served() or bool(os.environ.get(JOIN_VARIABLE, ""))


def terminal_size(width: int | None, height: int | None) -> tuple[int, int]:
    """A visitor's terminal size: the numbers the page gave, each between 1 and
    :data:`MOST_COLUMNS` or :data:`MOST_ROWS` (the default for one not given)."""
    columns = DEFAULT_SIZE[0] if width is None else width
    rows = DEFAULT_SIZE[1] if height is None else height
    return max(1, min(MOST_COLUMNS, columns)), max(1, min(MOST_ROWS, rows))


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


def shown_path(path: str | os.PathLike[str], folder: Path | None = None) -> str:
    """``path`` as a notice names it: whole, but in a served app as the visitor would
    type it (its place in the games folder, else its name alone: never the owner's
    folders)."""
    if not served():
        return os.fspath(path)
    root = folder if folder is not None else games_dir()
    pure = Path(path)
    for base in (root, root.resolve()):
        try:
            relative = pure.relative_to(base)
        except ValueError:
            continue
        return str(relative) if relative.parts else "."
    return pure.name


def hide_paths(text: str) -> str:
    """``text`` (a notice, an error's message) without the owner's folders, in a served
    app: a path in the games folder named from there, shashki's other folders and the
    home folder by what they are.  Outside served mode, ``text`` as it is."""
    if not served():
        return text
    from ..base.folders import user_folder

    def both(folder: Path) -> list[str]:  # (as named, and with its links followed)
        try:
            return [str(folder), str(folder.resolve())]
        except (OSError, RuntimeError):
            return [str(folder)]

    places: list[tuple[str, str]] = []
    for name in both(games_dir()):
        places += [(name + os.sep, ""), (name, _("the games folder"))]
    for folder, label in (
        (user_folder("data"), _("shashki's data folder")),
        (user_folder("config"), _("shashki's settings folder")),
        (user_folder("cache"), _("shashki's cache folder")),
    ):
        places += [(name, label) for name in both(folder)]
    try:
        places += [(name, "~") for name in both(Path.home())]
    except RuntimeError:  # (no home folder known)
        pass
    for path, label in sorted(set(places), key=lambda p: -len(p[0])):
        if len(path) > 1:  # (never "/" alone)
            text = text.replace(path, label)
    return text


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


__all__ = [
    "JOIN_SECONDS",
    "JOIN_VARIABLE",
    "MOST_COLUMNS",
    "MOST_ROWS",
    "SERVED_VARIABLE",
    "NotAllowed",
    "games_file",
    "hide_paths",
    "inside_games",
    "join_allowed",
    "served",
    "shown_path",
    "terminal_size",
]
