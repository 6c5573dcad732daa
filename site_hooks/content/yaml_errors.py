"""A YAML syntax error in one line a translator can act on: the file, the line and column
where the mistake is, and what it probably is.

PyYAML reports where the *parser* gave up, which is often a line after the mistake: a
missing closing quote is noticed where the next quote is, a key indented too little only
when the next line is indented as before. Its error carries two positions,
``problem_mark`` (where it gave up) and ``context_mark`` (where the construct it was reading
began); which one is the mistake depends on the error, so this module picks one:

=================================  ==========================================  =============
mistake                            what PyYAML says                            the mistake is
=================================  ==========================================  =============
a missing closing quote            found '<scalar>' (a line or more later)     where the quoted text began
text after the closing quote       found '<scalar>'                            problem_mark
an unclosed ``[`` or ``{``         expected ',' or ']' (a line later)           context_mark
a key without its colon            could not find expected ':' (a line later)  context_mark
a colon inside unquoted text       mapping values are not allowed here         problem_mark
a tab                              found character '\\t' ...                    problem_mark
a line indented too deep           expected <block end>, found <block ...>     problem_mark
a line indented too little         the same, on the *next* line                the line before
=================================  ==========================================  =============

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ValueError(describe(error, text, "docs/figure-strings/he.yml")) from None
"""

from __future__ import annotations

import yaml

_FLOW = ("while parsing a flow sequence", "while parsing a flow mapping")
_QUOTES = ('"', "'")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _content_lines(text: str) -> list[int]:
    """Indexes (0-based) of the lines that are neither blank nor comments."""
    return [i for i, line in enumerate(text.splitlines()) if line.strip() and not line.lstrip().startswith("#")]


def _token_before(text: str, mark: yaml.Mark) -> yaml.Token | None:
    """The last token the scanner read that starts before ``mark`` (None if it cannot tell)."""
    previous = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if (token.start_mark.line, token.start_mark.column) >= (mark.line, mark.column):
                break
            if not isinstance(token, (yaml.BlockEndToken, yaml.FlowEntryToken)):
                previous = token
    except yaml.YAMLError:
        pass
    return previous


def _too_little_indented(text: str, line: int) -> int | None:
    """For a line the parser finds indented too deep: the line before it when *that* one is
    the odd one out (indented less than both its neighbours agree on), else None."""
    content = _content_lines(text)
    if line not in content:
        return None
    at = content.index(line)
    if at == 0:
        return None
    lines = text.splitlines()
    before = content[at - 1]
    neighbours = [content[j] for j in (at - 2, at + 1) if 0 <= j < len(content)]
    if _indent(lines[before]) < _indent(lines[line]) and any(
        _indent(lines[n]) == _indent(lines[line]) for n in neighbours
    ):
        return before
    return None


def locate(error: yaml.YAMLError, text: str) -> tuple[int, int, str]:
    """(line, column, hint), 1-based, of the mistake behind ``error`` in ``text``."""
    problem = getattr(error, "problem", "") or ""
    context = getattr(error, "context", "") or ""
    mark = getattr(error, "problem_mark", None)
    start = getattr(error, "context_mark", None)
    if mark is None:
        return 1, 1, str(error).splitlines()[0]

    def at(m: yaml.Mark, hint: str) -> tuple[int, int, str]:
        return m.line + 1, m.column + 1, hint

    if "'\\t'" in problem or "\t" in problem:
        return at(mark, "a tab character: indent with spaces only")
    if context in _FLOW and start is not None:
        bracket = "[" if "sequence" in context else "{"
        return at(
            start,
            f"the '{bracket}' that starts here is never closed; text that begins with '[' or '{{' must be in quotes",
        )
    if context == "while scanning a simple key" and start is not None:
        return at(start, "a key without its ':' (or text that runs on over two lines)")
    if context == "while scanning a quoted scalar" and start is not None:
        return at(start, "the quoted text that starts here is never closed (a missing closing quote?)")
    if "mapping values are not allowed" in problem:
        return at(mark, "a ': ' inside text that is not in quotes: put the whole text in quotes")
    if "found '<scalar>'" in problem or "found '<block mapping start>'" in problem:
        token = _token_before(text, mark)
        if (
            isinstance(token, yaml.ScalarToken)
            and token.style in _QUOTES
            and token.start_mark.line != token.end_mark.line
        ):
            return at(
                token.start_mark,
                "the quoted text that starts here does not end on this line (a missing closing quote?)",
            )
        if "<scalar>" in problem:
            return at(
                mark,
                'text after the closing quote: write a quote inside the text as \\" (in '
                "\"...\") or '' (in '...'), or use typographic quotes",
            )
        shallow = _too_little_indented(text, mark.line)
        if shallow is not None:
            lines = text.splitlines()
            return shallow + 1, _indent(lines[shallow]) + 1, "this line is indented less than the keys around it"
        return at(mark, "this line is indented more than the key above it")
    return at(mark, problem or str(error).splitlines()[0])


def describe(error: yaml.YAMLError, text: str, source: str) -> str:
    """One line: ``<source>, line L, column C: <hint> (YAML: <PyYAML's own words>)``."""
    line, column, hint = locate(error, text)
    said = getattr(error, "problem", None) or str(error).splitlines()[0]
    return f"{source}, line {line}, column {column}: {hint} (YAML: {said})"
