"""Opening files a user names: regular files only, never blocking, decoded by their BOM.

Every file shashki reads on a user's word (a PDN archive, a variant definition, a JSON
fixture, an autosave) goes through :func:`open_regular`, so that a FIFO, a device such as
``/dev/zero``, a folder or a socket is refused at once with a clear message instead of
blocking or reading forever.  :func:`read_limited` reads a whole file up to a size limit,
and :func:`bom_encoding` / :func:`decode_text` decode bytes by their byte-order mark
(UTF-8 with or without BOM, UTF-16 and UTF-32 with BOM).  :func:`user_folder` is where
shashki keeps a user's files (the XDG base directories).

Standard library only: the rules layer and everything above may use it.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from collections.abc import Iterable
from typing import BinaryIO

from ..i18n import N_, _, ngettext
from .folders import user_folder

__all__ = [
    "UserFileError",
    "bom_encoding",
    "decode_text",
    "open_regular",
    "read_limited",
    "user_folder",
]


class UserFileError(OSError):
    """A file cannot be used: not a regular file, too large, unreadable.

    An ``OSError``, so code that already reports "cannot read FILE: reason" handles it;
    ``str()`` is the reason alone, in words.
    """

    def __init__(self, path: str, reason: str, err: int | None = None) -> None:
        super().__init__(err or errno.EINVAL, reason, path)
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.filename}: {self.reason}"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return _("a folder, not a file")
    if stat.S_ISFIFO(mode):
        return _("a pipe (FIFO), not a regular file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device, not a regular file")
    if stat.S_ISSOCK(mode):
        return _("a socket, not a regular file")
    return _("not a regular file")


def open_regular(path: str | os.PathLike[str], *, follow: bool = True) -> BinaryIO:
    """Open ``path`` for reading in binary mode, refusing anything but a regular file
    (and, with ``follow=False``, a link: for shashki's own files, which are never links).

    The file is opened without blocking (a FIFO with no writer would otherwise hang) and
    checked on the open descriptor, so a file swapped between a check and the open is
    still caught.  Raises :class:`UserFileError` (an OSError) for a folder, FIFO, device
    or socket, and OSError for a missing or unreadable file.
    """
    name = os.fspath(path)
    if isinstance(name, bytes):  # pragma: no cover - shashki passes text paths
        name = os.fsdecode(name)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
        if os.path.islink(name):  # (where O_NOFOLLOW is missing, and to say it in words)
            raise UserFileError(name, _("a link, not a file"), errno.ELOOP)
    try:
        fd = os.open(name, flags)
    except IsADirectoryError:
        raise UserFileError(name, _kind(stat.S_IFDIR), errno.EISDIR) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise UserFileError(name, _("a link, not a file"), errno.ELOOP) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UserFileError(name, _kind(mode))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_limited(path: str | os.PathLike[str], limit: int, *, follow: bool = True) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (``follow=False``: not
    through a link); raises UserFileError (too large, not a regular file) or OSError."""
    with open_regular(path, follow=follow) as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise UserFileError(
            os.fspath(path) if not isinstance(path, bytes) else os.fsdecode(path),
            _("too large (more than {size})").format(size=_size(limit)),
            errno.EFBIG,
        )
    return data


def sizes_total(paths: Iterable[str | os.PathLike[str]]) -> int:
    """The bytes of the files of ``paths`` (the whole of a progress bar); a file that
    cannot be looked at counts nothing."""
    total = 0
    for path in paths:
        try:
            total += os.stat(path).st_size
        except OSError:
            pass
    return total


def _size(n: int) -> str:
    if n >= 1 << 20:
        return _("{n} MB").format(n=f"{n / (1 << 20):g}")
    if n >= 1 << 10:
        return _("{n} KB").format(n=f"{n / (1 << 10):g}")
    return ngettext("{n} byte", "{n} bytes", n).format(n=n)


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE: it starts with the same bytes
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def bom_encoding(head: bytes) -> tuple[str, int] | None:
    """The encoding a byte-order mark at the start of ``head`` announces, and the BOM's
    length; None when there is no BOM."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name, len(bom)
    return None


#: The codecs' reasons for bytes that are not text (Python says them in English).
_CODEC_REASONS = {
    "invalid start byte": N_("invalid start byte"),
    "invalid continuation byte": N_("invalid continuation byte"),
    "unexpected end of data": N_("unexpected end of data"),
    "truncated data": N_("truncated data"),
    "illegal UTF-16 surrogate": N_("illegal UTF-16 surrogate"),
    "illegal encoding": N_("illegal encoding"),
    "code point not in range(0x110000)": N_("code point not in range(0x110000)"),
    "code point in surrogate code point range(0xd800, 0xe000)": N_(
        "code point in surrogate code point range(0xd800, 0xe000)"
    ),
}


def decode_text(data: bytes, what: str = N_("the file")) -> str:
    """Text from bytes: by the BOM when there is one, else UTF-8.

    Raises ``ValueError`` with a message naming ``what`` (a message marked with ``N_``)
    and the byte offset when the bytes cannot be decoded.
    """
    found = bom_encoding(data)
    encoding, skip = found if found else ("utf-8", 0)
    try:
        return data[skip:].decode(encoding)
    except UnicodeDecodeError as exc:
        label = encoding.upper().replace("-LE", "").replace("-BE", "")
        reason = _CODEC_REASONS.get(exc.reason)
        raise ValueError(
            _("{what} is not valid {encoding} text (byte {offset}: {reason})").format(
                what=_(what),
                encoding=label,
                offset=exc.start + skip,
                reason=_(reason) if reason else exc.reason,
            )
        ) from None
