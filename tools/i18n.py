"""The message catalogs: extract the messages of the code and bring the catalogs up to date.

    python tools/i18n.py extract     # src/shashki/locale/shashki.pot from the code
    python tools/i18n.py update      # add new messages to uk.po and ru.po (empty), keep the rest
    python tools/i18n.py check       # what the tests check: every message translated

A message is a string literal given to ``_`` (or ``i18n._``) (or ``N_``, a message marked for the
catalogs and translated where it is used), ``ngettext`` (singular, plural) or
``pgettext`` (context, message) anywhere under ``src/shashki``; ``agree`` (message, name)
gives one message for each kind of name its verb agrees with (plural, masculine, feminine).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "shashki"
sys.path.insert(0, str(ROOT / "src"))

from shashki.i18n import AGREEMENT, LANGUAGES, LOCALE_DIR, parse_po  # noqa: E402

Key = tuple[str | None, str, str | None]


def messages() -> dict[Key, list[str]]:
    """Every message of the code, with where it is used (``path:line``)."""
    found: dict[Key, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if (  # i18n._(…), where a module's own ``_`` is a loop variable
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "i18n"
            ):
                func = ast.Name(func.attr)
            if not isinstance(func, ast.Name):
                continue
            args = node.args
            texts = [
                a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
            key: Key | None = None
            if func.id == "agree" and texts:  # one message a kind of name
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                for context in AGREEMENT.values():
                    found.setdefault((context, texts[0], None), []).append(where)
                continue
            if func.id in ("_", "N_") and len(args) == 1 and len(texts) == 1:
                key = (None, texts[0], None)
            elif func.id == "ngettext" and len(texts) >= 2:
                key = (None, texts[0], texts[1])
            elif func.id == "pgettext" and len(texts) == 2:
                key = (texts[0], texts[1], None)
            if key is not None:
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                found.setdefault(key, []).append(where)
    return found


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def entry(key: Key, forms: list[str], where: list[str] | None = None) -> str:
    context, msgid, plural = key
    lines = [f"#: {' '.join(where)}"] if where else []
    if context is not None:
        lines.append(f"msgctxt {quote(context)}")
    lines.append(f"msgid {quote(msgid)}")
    if plural is None:
        lines.append(f"msgstr {quote(forms[0] if forms else '')}")
    else:
        lines.append(f"msgid_plural {quote(plural)}")
        for i, form in enumerate(forms or ["", "", ""]):
            lines.append(f"msgstr[{i}] {quote(form)}")
    return "\n".join(lines)


HEADER = (
    'msgid ""\nmsgstr ""\n'
    '"Project-Id-Version: shashki\\n"\n'
    '"Content-Type: text/plain; charset=UTF-8\\n"\n'
    '"Content-Transfer-Encoding: 8bit\\n"\n'
)


def extract() -> None:
    found = messages()
    out = [HEADER] + [entry(key, [], where) for key, where in found.items()]
    (LOCALE_DIR / "shashki.pot").write_text("\n\n".join(out) + "\n", encoding="utf-8")
    print(f"{len(found)} messages")


def update() -> None:
    found = messages()
    for language in LANGUAGES[1:]:
        path = LOCALE_DIR / f"{language}.po"
        old = parse_po(path.read_text(encoding="utf-8"))
        header = old.get((None, "", None), [""])[0]
        nplurals = 3 if "nplurals=3" in header else 2
        head = 'msgid ""\nmsgstr ""\n' + "".join(
            quote(line + "\n") + "\n" for line in header.splitlines()
        )
        body = []
        for key, where in found.items():
            forms = old.get(key) or ([""] * (nplurals if key[2] is not None else 1))
            body.append(entry(key, forms, where))
        path.write_text("\n\n".join([head.rstrip("\n"), *body]) + "\n", encoding="utf-8")
        missing = sum(1 for key in found if not any(old.get(key) or []))
        print(f"{language}: {len(found)} messages, {missing} to translate")


def check() -> int:
    found = messages()
    bad = 0
    for language in LANGUAGES[1:]:
        entries = parse_po((LOCALE_DIR / f"{language}.po").read_text(encoding="utf-8"))
        for key in found:
            if not all(entries.get(key, [""])):
                print(f"{language}: untranslated {key[1]!r}")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    if command == "extract":
        extract()
    elif command == "update":
        update()
    else:
        sys.exit(check())
