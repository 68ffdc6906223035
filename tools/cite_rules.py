"""Point the code's rule citations at the rules reference in ``docs/rules/``.

The code once cited two rule specifications that are not part of the repository, by section:
``RULES.md V11, A.3.12``, ``NATIONAL.md C.5``, or a bare ``(A.2)``.  This script rewrites
each such citation, in comments and docstrings only, into the file and anchor of
``docs/rules/`` that now holds that rule: ``docs/rules/family.md#bashni``,
``docs/rules/switches.md#precedence``, ``docs/rules/conventions.md#move-identity``.  Several
anchors of one file are written ``docs/rules/national.md#frisian, #frysk``.

It is idempotent (a second run changes nothing) and touches nothing but comment and
docstring text, so it can be run again after other branches are merged::

    python tools/cite_rules.py            # rewrite src/, tests/, variants/, tools/, benchmarks/
    python tools/cite_rules.py --check    # list what would change; exit status 1 if anything

A comment or docstring line pushed past 100 characters is wrapped: the words that do not fit
go to the start of the next line of the same paragraph, or onto a new line.
``tests/test_rule_citations.py`` checks that every citation names a file and anchor that
exist.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tokenize
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 100
FOLDERS = ("src", "tests", "variants", "tools", "benchmarks")
SKIP = {Path("tools/cite_rules.py"), Path("tests/test_rule_citations.py")}
#: Where a bare section number (``V12``, ``(A.2)``, ``C.5``) is a citation: the rules, the
#: records and their tests, the variant files.  Elsewhere "V1" may be a protocol's version.
BARE_FOLDERS = (
    "src/shashki/rules/",
    "src/shashki/records/",
    "tests/rules/",
    "tests/records/",
    "variants/",
)

# -- where each old section went ---------------------------------------------------------

_RULES_A3 = [
    "classic.md#traditional",  # A.3.1
    "classic.md#russian",
    "classic.md#brazilian",
    "classic.md#international",
    "classic.md#english",
    "modified.md#diagonal",
    "modified.md#giveaway",
    "family.md#wolf-sheep",
    "orthogonal.md#tama",
    "orthogonal.md#tama-armenian",  # A.3.10
    "orthogonal.md#turkish",
    "family.md#bashni",
    "modified.md#self-capture",
    "family.md#artamonov",
    "modified.md#demotion",
    "modified.md#move-opponent",
    "modified.md#double-move",  # A.3.17
]
# The open points of the old section 4, item by item.
_RULES_4 = [
    "classic.md#traditional",
    "classic.md#traditional-draws",
    "classic.md#brazilian",
    "classic.md#russian-draws",
    "modified.md#diagonal",
    "modified.md#giveaway",
    "family.md#wolf-sheep",
    "orthogonal.md#tama",
    "orthogonal.md#turkish-draws",
    "orthogonal.md#turkish",
    "family.md#bashni",
    "modified.md#self-capture",
    "family.md#artamonov",
    "modified.md#demotion",
    "modified.md#move-opponent",
    "modified.md#double-move",
    "conventions.md#move-identity",
]

RULES: dict[str, str] = {
    "§0": "conventions.md#board",
    "§0.1": "conventions.md#board",
    "§0.2": "conventions.md#numbering",
    "§0.3": "conventions.md#terms",
    "§0.4": "switches.md#switches",
    "§0.5": "conventions.md#end",
    "§1": "README.md#documents",
    "§1.1": "README.md#document-000",
    "§1.2": "README.md#document-002",
    "§2": "README.md#variants",
    "§2.17": "switches.md#positions",
    "§3": "switches.md#matrix",
    "§4": "README.md#how-to-read",
    "§5": "conventions.md#perft",
    "§6": "README.md#sources",
    "A": "README.md#how-to-read",
    "A.1": "README.md#variants",
    "A.2": "conventions.md#move-identity",
    "A.3": "conventions.md#draws",
    "A.4": "national.md",
    "V1": "classic.md#traditional",
    "V2": "classic.md#russian",
    "V2a": "classic.md#russian",
    "V2b": "classic.md#brazilian",
    "V3": "classic.md#international",
    "V4": "classic.md#english",
    "V5": "modified.md#diagonal",
    "V6": "modified.md#giveaway",
    "V7": "family.md#wolf-sheep",
    "V8": "orthogonal.md#tama",
    "V8a": "orthogonal.md#tama",
    "V8b": "orthogonal.md#tama-armenian",
    "V9": "orthogonal.md#turkish",
    "V10": "orthogonal.md#turkish",
    "V11": "family.md#bashni",
    "V12": "modified.md#self-capture",
    "V13": "family.md#artamonov",
    "V14": "modified.md#demotion",
    "V15": "modified.md#move-opponent",
    "V16": "modified.md#double-move",
}
RULES.update({f"A.3.{n}": target for n, target in enumerate(_RULES_A3, 1)})
RULES.update({f"§4.{n}": target for n, target in enumerate(_RULES_4, 1)})
for _n in range(1, 7):  # the positions T1-T6 (and T6a, T6b)
    for _suffix in ("", "a", "b"):
        RULES[f"T{_n}{_suffix}"] = "switches.md#positions"

_NATIONAL_N = [
    "national.md#pool",  # N1
    "national.md#italian",
    "national.md#spanish",
    "national.md#portuguese",
    "national.md#czech",
    "national.md#slovak",
    "national.md#thai",
    "national.md#frisian",
    "national.md#frysk",
    "national.md#canadian",  # N10
    "national.md#sri-lankan",
    "national.md#malaysian",
    "national.md#killer",
    "national.md#breakthrough",
    "national.md#antidraughts",
    "national.md#later",  # N16
]
_NATIONAL_A2 = [
    "conventions.md#colouring",  # A.2-1
    "conventions.md#gametype",
    "switches.md#precedence",
    "switches.md#precedence",
    "national.md#thai",  # A.2-5
    "national.md#killer",
    "conventions.md#backstops",
    "conventions.md#end-order",
    "national.md#slovak",
    "national.md#portuguese",  # A.2-10
    "national.md#sri-lankan",
    "national.md#international-hosts",
    "national.md#thai-counts",
    "conventions.md#move-identity",
    "conventions.md#pdn-reading",  # A.2-15
]
_NATIONAL_C = [
    "conventions.md#colouring",  # C.1
    "conventions.md#gametype",
    "switches.md#orthogonal-steps",
    "switches.md#men-and-kings",
    "switches.md#precedence",
    "switches.md#landing",
    "switches.md#king-limit",
    "switches.md#promotion-wins",
    "conventions.md#draws",  # C.9
]
_NATIONAL_TESTS = {
    "PL": "national.md#pool-positions",
    "IT": "national.md#italian-positions",
    "SP": "national.md#spanish-positions",
    "CZ": "national.md#czech-positions",
    "TH": "national.md#thai-positions",
    "FR": "national.md#frisian-positions",
    "FY": "national.md#frysk",
    "CA": "national.md#canadian",
    "SL": "national.md#sri-lankan",
    "ML": "national.md#malaysian",
    "KI": "national.md#killer-positions",
    "BT": "national.md#breakthrough",
    "AD": "national.md#antidraughts",
}

NATIONAL: dict[str, str] = {
    "A": "national.md#decisions",
    "A.1": "national.md#gametypes",
    "A.2": "national.md#decisions",
    "A.3": "national.md#pool-czech-landing",
    "B": "switches.md#matrix",
    "C": "switches.md",
    "O": "national.md#open",
    "S": "README.md#sources",
}
NATIONAL.update({f"N{n}": target for n, target in enumerate(_NATIONAL_N, 1)})
NATIONAL.update({f"A.2-{n}": target for n, target in enumerate(_NATIONAL_A2, 1)})
NATIONAL.update({f"C.{n}": target for n, target in enumerate(_NATIONAL_C, 1)})
for _prefix, _target in _NATIONAL_TESTS.items():
    for _n in range(1, 10):
        NATIONAL[f"{_prefix}{_n}"] = _target

TABLES = {"RULES": RULES, "NATIONAL": NATIONAL}
#: What a citation of the whole file (no section) becomes.
WHOLE = {"RULES": "README.md", "NATIONAL": "national.md"}

# -- recognising citations ---------------------------------------------------------------

#: Phrases rewritten whole, before anything else (text that a section table cannot say).
PHRASES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"RULES\.md: threefold repetition"), "docs/rules/conventions.md#repetition"),
    (
        re.compile(r"RULES\.md \(§3 parameter matrix, A\.3 draws\)"),
        "docs/rules/switches.md#matrix and docs/rules/conventions.md#draws",
    ),
    (re.compile(r"NATIONAL\.md (FR\d)'s"), r"\1's (docs/rules/national.md#frisian-positions)"),
    (re.compile(r"NATIONAL\.md's \"any\" landing"), 'the first reading\'s "any" landing'),
    (re.compile(r"\s*\(switch matrix B, row \"[\w-]+\"\)"), ""),
    (re.compile(r"\s*\(switch matrix$"), ";"),
    (re.compile(r"^B, row \"[\w-]+\"\);\s*"), ""),
    (re.compile(r"\bthe client's (document)"), r"\1"),
]

_R_TOKEN = r"§\s?\d+(?:\.\d+)?(?:\s+T\d[ab]?)?|A\.\d(?:\.\d+)?\b|V\d+[ab]?\b|T\d[ab]?\b"
_N_TOKEN = r"A\.\d(?:-\d+)?\b|C\.\d\b|N\d+\b|(?:PL|IT|SP|CZ|TH|FR|FY|CA|SL|ML|KI|BT|AD)\d\b"
TOKEN = {"RULES": re.compile(_R_TOKEN), "NATIONAL": re.compile(_N_TOKEN)}
RANGE = re.compile(r"\s?[-–]\s?")
SEPARATOR = re.compile(r"\s*(?:,|;|\band\b)?\s*")
PREFIX = re.compile(r"\b(RULES|NATIONAL)\.md\b")
#: A bare section, with the specification it belongs to; A.1-A.4 alone are ambiguous and
#: take the specification last cited in the file (RULES first).
BARE = re.compile(
    r"(?P<rules>(?<![\w.`-])(?:V\d+[ab]?|A\.\d\.\d+)(?![\w`-])"
    r"|(?<!\b000 )(?<!\b002 )§\s?\d+(?:\.\d+)?(?:\s+T\d[ab]?\b)?)"
    r"|(?P<national>(?<![\w.,:=`-])(?:A\.2-\d+|C\.[1-9]|N(?:1[0-6]|[1-9]))(?![\w`-]|\.\d|,\S))"
    r"|(?P<either>(?<![\w.`-])A\.[1-4](?![\w`-]|\.\d))"
)
IDS = re.compile(r"^(?:T\d[ab]?|[A-Z]{2}\d)$")


def _expand(first: str, last: str) -> list[str]:
    """``V14``-``V16`` or ``A.3.15``-``A.3.17`` as each section between."""
    a = re.fullmatch(r"(\D*?)(\d+)([ab]?)", first)
    b = re.fullmatch(r"(\D*?)(\d+)([ab]?)", last)
    if a and b and a.group(1) == b.group(1) and not a.group(3) and not b.group(3):
        start, end = int(a.group(2)), int(b.group(2))
        if 0 <= end - start <= 20:
            return [f"{a.group(1)}{n}" for n in range(start, end + 1)]
    return [first, last]


def _normal(token: str) -> str:
    token = re.sub(r"§\s+", "§", token)
    return re.sub(r"\s+", " ", token)


def _lookup(spec: str, token: str) -> tuple[str | None, str | None]:
    """(target, test id kept beside it) of one token."""
    table = TABLES[spec]
    token = _normal(token)
    if " " in token:  # "§2.17 T4"
        section, test_id = token.split(" ", 1)
        return table.get(test_id) or table.get(section), test_id
    return table.get(token), (token if IDS.match(token) else None)


def _scan(spec: str, text: str, pos: int) -> tuple[list[str], int]:
    """The tokens of a list of sections from ``pos`` (``V5, V6, V14-V16; A.3.6``) and
    where the list ends."""
    tokens: list[str] = []
    token_re = TOKEN[spec]
    while True:
        sep = SEPARATOR.match(text, pos)
        start = sep.end() if sep else pos
        if tokens and sep and not sep.group().strip() and start > pos:
            break  # "V5 V6" without a separator is prose, not a list
        m = token_re.match(text, start)
        if not m:
            break
        token, end = m.group(), m.end()
        dash = RANGE.match(text, end)
        if dash:
            m2 = token_re.match(text, dash.end())
            if m2 and m2.group()[:1] == token[:1]:
                tokens.extend(_expand(_normal(token), _normal(m2.group())))
                pos = m2.end()
                continue
        tokens.append(token)
        pos = end
    return tokens, pos


def _format(spec: str, tokens: list[str], drop: str = "") -> str | None:
    """The docs/rules citation of a list of sections, or None when one is unknown; without
    the target ``drop`` ("" when nothing else is left)."""
    targets: list[str] = []
    ids: list[str] = []
    for token in tokens:
        target, test_id = _lookup(spec, token)
        if target is None:
            return None
        if target not in targets and f"docs/rules/{target}" != drop:
            targets.append(target)
        if test_id and test_id not in ids:
            ids.append(test_id)
    parts: list[str] = []
    last_file = ""
    for target in targets:
        file, _, anchor = target.partition("#")
        if file == last_file and anchor:
            parts[-1] += f", #{anchor}"
        else:
            parts.append(f"docs/rules/{target}")
        last_file = file
    text = "; ".join(parts)
    return f"{text} {', '.join(ids)}" if ids else text


class Rewriter:
    """Rewrites the citations of one file's comment and docstring lines, in order."""

    def __init__(self, own: bool = False, bare: bool = True) -> None:
        self.spec = "RULES"  # the specification last cited, for the ambiguous bare A.n
        self.bare = bare
        #: A variant file cites its own section on its first line; a bare citation of that
        #: section further down says nothing more and is dropped (``own`` turns this on).
        self.own: str | None = "" if own else None

    def line(self, text: str) -> str:
        for pattern, replacement in PHRASES:
            text = pattern.sub(replacement, text)
        text = self._prefixed(text)
        return self._bare(text) if self.bare else text

    def _prefixed(self, text: str) -> str:
        out: list[str] = []
        pos = 0
        for m in PREFIX.finditer(text):
            if m.start() < pos:
                continue
            spec = m.group(1)
            self.spec = spec
            after = m.end() + 2 if text.startswith("'s", m.end()) else m.end()
            tokens, end = _scan(spec, text, after)
            cited = _format(spec, tokens) if tokens else None
            if cited is not None and self.own == "":
                self.own = cited.split(",")[0].split(";")[0].split(" ")[0]
            out.append(text[pos : m.start()])
            if cited is None:
                out.append(f"docs/rules/{WHOLE[spec]}" + text[m.end() : after])
                pos = after
            else:
                out.append(cited)
                pos = end
        out.append(text[pos:])
        return "".join(out)

    def _bare(self, text: str) -> str:
        out: list[str] = []
        pos = 0
        while True:
            m = BARE.search(text, pos)
            if not m:
                break
            spec = "RULES" if m.group("rules") else "NATIONAL" if m.group("national") else None
            spec = spec or self.spec
            tokens, end = _scan(spec, text, m.start())
            cited = _format(spec, tokens, drop=self.own or "") if tokens else None
            if cited == "":  # only the variant's own section: drop it and its punctuation
                rest = re.match(r"\s*[:,]\s*", text[end:])
                if rest:
                    out.append(text[pos : m.start()])
                    pos = end + rest.end()
                    continue
                cited = _format(spec, tokens)
            if cited is None:
                out.append(text[pos : m.end()])
                pos = m.end()
                continue
            out.append(text[pos : m.start()] + cited)
            pos = end
        out.append(text[pos:])
        return "".join(out)


# -- comment and docstring lines ---------------------------------------------------------

MARKER = re.compile(r"(?:[-*|>#]|\d+[.)]|:\w|\.\.|--)")
RULE_LINE = re.compile(r"^(--.*?)\s+-{3,}$")
ITEM = re.compile(r"(?:[-*]|\d+\.)\s+")


def _lead(text: str) -> str:
    return text[: len(text) - len(text.lstrip())]


class Block:
    """Consecutive prose lines: line ``i`` is ``prefixes[i] + texts[i]``.  A line that grows
    too long spills its last words into the next line of the same paragraph (the same
    indentation, not a new item), else into a new line below it.  ``spill`` is the
    prefix of such a new line after the first one (a docstring's indentation); ``code``
    is the code before a comment at the end of a line, which then moves above it."""

    def __init__(
        self, rows: list[int], prefixes: list[str], texts: list[str], spill: str, code: str = ""
    ):
        self.rows, self.prefixes, self.texts = rows, prefixes, texts
        self.spill, self.code = spill, code

    def wrapped(self) -> list[str]:
        if self.code:  # a comment after code: above it, when the line got too long
            line = self.code + self.prefixes[0][len(self.code) :] + self.texts[0]
            if len(line) <= WIDTH:
                return [line]
            indent = _lead(self.code)
            mark = self.prefixes[0][len(self.code) :].strip()
            above = Block([0], [f"{indent}{mark} "], [self.texts[0]], f"{indent}{mark} ")
            return [*above.wrapped(), self.code.rstrip()]
        heads, bodies = [], []
        for i, (prefix, text) in enumerate(zip(self.prefixes, self.texts, strict=True)):
            lead = _lead(text)
            heads.append(prefix + lead if i or not self.spill else prefix)
            bodies.append(text[len(lead) :] if i or not self.spill else text)
        i = 0
        while i < len(bodies):
            room = WIDTH - len(heads[i])
            rule = RULE_LINE.match(bodies[i])
            if rule and len(bodies[i]) > room:  # "-- a heading ------": fewer dashes, or none
                dashes = room - len(rule.group(1)) - 1
                bodies[i] = f"{rule.group(1)} {'-' * dashes}" if dashes >= 3 else rule.group(1)
            body = bodies[i]
            if len(body) > room and " " in body.strip():
                cut = body.rfind(" ", 0, room + 1)
                if cut <= 0:
                    cut = body.find(" ")
                head, tail = body[:cut].rstrip(), body[cut:].strip()
                if tail and head:
                    bodies[i] = head
                    item = ITEM.match(body)
                    cont = heads[i] + " " * item.end() if item else heads[i]
                    if i == 0 and self.spill:
                        cont = self.spill
                    nxt = i + 1
                    if nxt < len(bodies) and heads[nxt] == cont and self._joinable(bodies[nxt]):
                        bodies[nxt] = f"{tail} {bodies[nxt]}"
                    else:
                        heads.insert(nxt, cont)
                        bodies.insert(nxt, tail)
            i += 1
        return [h + b for h, b in zip(heads, bodies, strict=True)]

    @staticmethod
    def _joinable(body: str) -> bool:
        return bool(body) and not MARKER.match(body) and not body.startswith(('"""', "'''"))


def _python_blocks(source: str) -> Iterator[Block]:
    lines = source.splitlines(keepends=False)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return
    comments: list[tuple[int, str, str]] = []  # (row, prefix, text) of whole-line comments
    previous = tokenize.NEWLINE
    for k, tok in enumerate(tokens):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start[0] - 1, tok.start[1]
            line = lines[row]
            m = re.match(r"#+:?\s?", line[col:])
            width = m.end() if m else 1
            if line[:col].strip():
                yield Block([row], [line[: col + width]], [line[col + width :]], "", line[:col])
            else:
                comments.append((row, line[: col + width], line[col + width :]))
        elif tok.type == tokenize.STRING:
            nxt = tokens[k + 1].type if k + 1 < len(tokens) else tokenize.ENDMARKER
            if previous in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.NL) and (
                nxt in (tokenize.NEWLINE, tokenize.ENDMARKER)
            ):
                (r0, c0), (r1, _) = tok.start, tok.end
                rows = list(range(r0 - 1, r1))
                prefixes = [lines[r0 - 1][:c0]]
                texts = [lines[r0 - 1][c0:]]
                for row in rows[1:]:
                    indent = _lead(lines[row])
                    prefixes.append(indent)
                    texts.append(lines[row][len(indent) :])
                yield Block(rows, prefixes, texts, " " * c0)
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            previous = tok.type
    # whole-line comments, grouped into paragraphs of one prefix
    group: list[tuple[int, str, str]] = []
    for item in [*comments, (-2, "", "")]:
        if group and (item[0] != group[-1][0] + 1 or item[1] != group[-1][1]):
            yield Block([g[0] for g in group], [g[1] for g in group], [g[2] for g in group], "")
            group = []
        group.append(item)


def _toml_blocks(source: str) -> Iterator[Block]:
    in_multiline: str | None = None
    for row, line in enumerate(source.splitlines()):
        i, quote = 0, None
        while i < len(line):
            if in_multiline:
                end = line.find(in_multiline, i)
                if end < 0:
                    break
                i, in_multiline = end + 3, None
                continue
            ch = line[i]
            if quote:
                if ch == "\\" and quote == '"':
                    i += 2
                    continue
                if ch == quote:
                    quote = None
            elif line.startswith(('"""', "'''"), i):
                in_multiline = line[i : i + 3]
                i += 3
                continue
            elif ch in "\"'":
                quote = ch
            elif ch == "#":
                m = re.match(r"#+\s?", line[i:])
                width = m.end() if m else 1
                yield Block([row], [line[: i + width]], [line[i + width :]], line[: i + width])
                break
            i += 1


def rewrite(source: str, kind: str, bare: bool = True) -> str:
    """``source`` with its citations rewritten (``kind``: "py" or "toml"; ``bare``: sections
    cited without the name of their specification too)."""
    lines = source.splitlines(keepends=False)
    blocks = list(_python_blocks(source) if kind == "py" else _toml_blocks(source))
    blocks.sort(key=lambda b: b.rows[0])
    rewriter = Rewriter(own=kind == "toml", bare=bare)
    changed: list[tuple[Block, list[str]]] = []
    for block in blocks:
        texts = [rewriter.line(t) for t in block.texts]
        if texts != block.texts:
            block.texts = texts
            new = (
                block.wrapped()
                if kind == "py"
                else [p + t for p, t in zip(block.prefixes, texts, strict=True)]
            )
            changed.append((block, new))
    for block, new in sorted(changed, key=lambda c: c[0].rows[0], reverse=True):
        lines[block.rows[0] : block.rows[-1] + 1] = new
    end = "\n" if source.endswith("\n") else ""
    return "\n".join(lines) + end


def files() -> Iterator[Path]:
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT)
            if path.suffix in (".py", ".toml") and path.is_file() and rel not in SKIP:
                yield path


def rewrite_file(path: Path) -> tuple[str, str]:
    """The text of ``path`` and the same with its citations rewritten."""
    source = path.read_text(encoding="utf-8")
    rel = path.relative_to(ROOT).as_posix()
    bare = rel.startswith(BARE_FOLDERS)
    return source, rewrite(source, "py" if path.suffix == ".py" else "toml", bare)


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; list the files")
    args = parser.parse_args(argv)
    touched = 0
    for path in files():
        source, new = rewrite_file(path)
        if new != source:
            touched += 1
            out(str(path.relative_to(ROOT)))
            if not args.check:
                path.write_text(new, encoding="utf-8")
    return 1 if args.check and touched else 0


if __name__ == "__main__":
    sys.exit(main())
