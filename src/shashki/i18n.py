"""The players' languages: Ukrainian (``uk``), Russian (``ru``) and English (``en``).

The catalogs are gettext's own ``.po`` files (``shashki/locale/<lang>.po``), read at run
time: each is compiled in memory into the ``.mo`` form and handed to the standard
library's :class:`gettext.GNUTranslations`, so plural forms follow the catalog's
``Plural-Forms`` header (three forms in Ukrainian and Russian) and translators' tools
(Poedit, msgfmt --check) work on the files as they are.

The language is chosen by :func:`detect` from the environment (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``, as gettext does), overridden by ``--lang`` and by the app's
setting (:func:`set_language`).  An unknown language falls back to English, the text of
the source.  Messages use named placeholders (``_("{n} moves").format(n=3)``), so that a
translation may put them in another order.

This module uses the standard library only: every layer may import it.
"""

from __future__ import annotations

import ast
import errno
import gettext
import io
import os
import struct
from collections.abc import Mapping
from functools import cache
from pathlib import Path

#: The languages shashki speaks, English (the source) first.
LANGUAGES = ("en", "uk", "ru")
#: Each language's name in itself.
LANGUAGE_NAMES = {"en": "English", "uk": "Українська", "ru": "Русский"}
LOCALE_DIR = Path(__file__).with_name("locale")

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def parse_po(text: str) -> dict[tuple[str | None, str, str | None], list[str]]:
    """The entries of a ``.po`` text: ``(context, msgid, msgid_plural) -> msgstr forms``
    (the header is the entry of msgid ""); fuzzy and obsolete entries are left out.
    Raises ValueError naming the line of a mistake."""
    entries: dict[tuple[str | None, str, str | None], list[str]] = {}
    fields: dict[str, str] = {}
    current: str | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal fields, current, fuzzy
        if "msgid" in fields and not fuzzy:
            if "msgstr" in fields:
                forms = [fields["msgstr"]]
            else:  # msgstr[0], msgstr[1]…: a form left out is untranslated
                indices = [f[7:-1] for f in fields if f.startswith("msgstr[")]
                count = 1 + max(
                    (int(i) for i in indices if i.isdigit() and len(i) <= 2), default=-1
                )
                forms = [fields.get(f"msgstr[{i}]", "") for i in range(count)]
            key = (fields.get("msgctxt"), fields["msgid"], fields.get("msgid_plural"))
            entries[key] = forms
        fields, current, fuzzy = {}, None, False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if "msgid" in fields:
                    flush()
                fuzzy = True
            elif line.startswith("#~"):
                continue
            continue
        if line.startswith('"'):
            if current is None:
                raise ValueError(f"line {number}: a string outside an entry")
            fields[current] += _unquote(line, number)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword not in ("msgctxt", "msgid", "msgid_plural", "msgstr") and not (
            keyword.startswith("msgstr[") and keyword.endswith("]")
        ):
            raise ValueError(f"line {number}: unknown keyword {keyword[:20]!r}")
        if keyword in ("msgctxt", "msgid") and "msgstr" in "".join(fields):
            flush()
        current = keyword
        fields[keyword] = _unquote(rest.strip(), number)
    flush()
    return entries


def _unquote(text: str, number: int) -> str:
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"line {number}: expected a quoted string")
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise ValueError(f"line {number}: a bad string") from None
    if not isinstance(value, str):  # pragma: no cover - a quoted literal is a str
        raise ValueError(f"line {number}: a bad string")
    return value


def compile_mo(entries: Mapping[tuple[str | None, str, str | None], list[str]]) -> bytes:
    """The ``.mo`` bytes of a catalog's entries (what msgfmt writes); untranslated entries
    (an empty msgstr) are left out, so that the source's English shows."""
    pairs: list[tuple[bytes, bytes]] = []
    for (context, msgid, plural), forms in entries.items():
        if msgid and not any(forms):
            continue
        key = msgid if plural is None else f"{msgid}\0{plural}"
        if context is not None:
            key = f"{context}\x04{key}"
        pairs.append((key.encode("utf-8"), "\0".join(forms).encode("utf-8")))
    pairs.sort()
    count = len(pairs)
    keys_start = 7 * 4
    values_start = keys_start + count * 8
    data_start = values_start + count * 8
    key_table: list[tuple[int, int]] = []
    value_table: list[tuple[int, int]] = []
    data = b""
    for raw_key, _value in pairs:
        key_table.append((len(raw_key), data_start + len(data)))
        data += raw_key + b"\0"
    for _key, value in pairs:
        value_table.append((len(value), data_start + len(data)))
        data += value + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, count, keys_start, values_start, 0, 0)
    for length, offset in key_table + value_table:
        out += struct.pack("<2I", length, offset)
    return out + data


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """The translations of ``language`` (English, or a missing catalog: the source text)."""
    path = LOCALE_DIR / f"{language}.po"
    if language == "en" or not path.is_file():
        return gettext.NullTranslations()
    entries = parse_po(path.read_text(encoding="utf-8"))
    return gettext.GNUTranslations(io.BytesIO(compile_mo(entries)))


def detect(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it (``LANGUAGE`` may list
    several, ``uk:ru``; then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English when none of
    the languages asked for is one of :data:`LANGUAGES`."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for item in value.split(":"):
            code = normalise(item)
            if code:
                return code
        if name != "LANGUAGE":  # the first of LC_ALL, LC_MESSAGES, LANG that is set decides
            return "en"
    return "en"


def normalise(text: str) -> str | None:
    """The language of a locale name (``uk_UA.UTF-8`` -> ``uk``), if shashki speaks it."""
    code = text.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if code in ("c", "posix"):
        return "en"
    return code if code in LANGUAGES else None


def set_language(language: str | None) -> str:
    """Speak ``language`` from now on (None: the environment's); returns the one chosen."""
    global _current, _language
    code = normalise(language) if language else detect()
    _language = code or "en"
    _current = catalog(_language)
    return _language


def language() -> str:
    """The language spoken now."""
    return _language


def _(message: str) -> str:
    """``message`` in the language spoken now."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the number ``n`` in the language spoken now."""
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs where it is written (a table made at import);
    it is translated with :func:`_` where it is shown."""
    return message


def pgettext(context: str, message: str) -> str:
    """``message`` in ``context`` (a word that means two things in English)."""
    return _current.pgettext(context, message)


def clause(message: object) -> str:
    """A message written as a sentence (the app shows it so: "Cannot open x: why."),
    made the clause that follows a colon in a line of its own: its first letter small
    unless its first word is all capitals or a name written with more than one ("PDN",
    "FEN"), and the full stop of a one-sentence message dropped.

    >>> clause("Cannot open games.pdn: no such file.")
    'cannot open games.pdn: no such file'
    >>> clause("PDN is not a FEN. Try again.")
    'PDN is not a FEN. Try again.'
    """
    text = str(message).strip()
    word = text.split(maxsplit=1)[0] if text else ""
    if len(word) > 1 and word[0].isupper() and word[1:].isalpha() and word[1:].islower():
        text = text[0].lower() + text[1:]
    body = text[:-1]
    if text.endswith(".") and not body.endswith(".") and ". " not in body:
        text = body
    return text


def error_line(message: object) -> str:
    """The command line's one line for an error that stops it, in the language spoken
    now ("shashki: error: cannot open games.pdn: no such file")."""
    return _("shashki: error: {message}").format(message=clause(message))


#: The system's reasons a player meets most, by errno: the system says them in English.
_OS_REASONS = {
    errno.ENOENT: N_("no such file"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EISDIR: N_("a folder, not a file"),
    errno.ENOTDIR: N_("not a folder"),
    errno.EROFS: N_("read-only file system"),
    errno.EEXIST: N_("the file already exists"),
}


def os_reason(exc: BaseException) -> str:
    """Why a file operation failed, in the language spoken now: the usual system errors
    from the catalogs, else (and in English) the system's own words (``strerror``)."""
    if isinstance(exc, OSError):
        known = _OS_REASONS.get(exc.errno or 0)
        if known is not None and _language != "en":  # English keeps the system's words
            return _(known)
        if exc.strerror:
            return exc.strerror
    return str(exc)


#: The kinds of name a verb agrees with (:func:`agree`), as a side's forms give them.
KINDS = ("plural", "masculine", "feminine")
#: The message context of each kind, as the catalogs write it.
AGREEMENT = {kind: f"agrees with a {kind} name" for kind in KINDS}


class Noun(str):
    """A name that declines: the name shown alone (``str(noun)``, "Білі"), and its forms
    inside a sentence, which a message takes as ``{side.nom}``, ``{side.gen}``,
    ``{side.dat}`` and ``{side.ins}`` ("білі", "білих", "білим", "білими"); ``kind`` is
    what a verb agrees with (:func:`agree`).  Forms are written
    ``"білі, білих, білим, білими; plural"``; where they are missing or malformed every
    form is the name itself (English, a name a person typed)."""

    nom: str
    gen: str
    dat: str
    ins: str
    kind: str

    def __new__(cls, name: str, forms: str = "") -> Noun:
        self = super().__new__(cls, name)
        cases, _sep, kind = forms.partition(";")
        words = [w.strip() for w in cases.split(",")]
        if len(words) != 4 or not all(words) or kind.strip() not in KINDS:
            words, kind = [str(name)] * 4, "plural"
        self.nom, self.gen, self.dat, self.ins = words
        self.kind = kind.strip()
        return self

    def named(self, player: str) -> Noun:
        """A player's name with this side's: "Іван (Білі)" alone, "білих (Іван)" in a
        sentence (the side declines, the name a person typed does not)."""
        forms = ", ".join(f"{case} ({player})" for case in (self.nom, self.gen, self.dat, self.ins))
        return Noun(f"{player} ({self})", f"{forms}; {self.kind}")


def noun(name: str, english: str | None = None) -> Noun:
    """``name`` with its forms: those the catalog gives the common side ``english``
    ("White", "Black": message context ``side forms``), else the name itself in every
    case (a player's own name does not decline)."""
    if isinstance(name, Noun):
        return name
    forms = ""
    if english is not None:
        forms = _current.pgettext("side forms", english)
        if forms == english:
            forms = ""
    return Noun(name, forms)


def agree(message: str, name: str) -> str:
    """``message`` with its verb agreeing with ``name`` (a :class:`Noun`): the catalogs
    translate it once for each kind of name (message contexts :data:`AGREEMENT`)."""
    kind = getattr(name, "kind", "plural")
    return _current.pgettext(AGREEMENT.get(kind, AGREEMENT["plural"]), message)


__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "N_",
    "Noun",
    "_",
    "agree",
    "catalog",
    "compile_mo",
    "detect",
    "language",
    "ngettext",
    "noun",
    "os_reason",
    "parse_po",
    "pgettext",
    "set_language",
]
