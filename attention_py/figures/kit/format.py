"""Numbers as a reader sees them: fixed decimals, a real minus sign, honest percentages,
written in the reader's conventions.

``num`` writes a number the way Python and the articles' code do (``0.56``, U+2212 as minus).
A ``NumberFormat`` writes it the way a language does: its digits, its decimal separator and
its percent sign (``0,56`` and ``99,2 %`` in Russian). A language's formats come from the
``common`` section of its strings file (``NUMBER_KEYS``, read by ``Text``): one for numbers in
a sentence (counts, the page's own messages), and one for the figures' measured values, which
is either the same or, for a language whose articles write mathematics in Latin digits
although its prose does not (Persian), ``LATIN``.

Formatting refuses NaN and infinity with an error instead of printing them: the figures
must make sure such values never arise, and the tests drive extreme states through every
figure to prove it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

MINUS = "\u2212"
LATIN_DIGITS = "0123456789"
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def num(value: float, digits: int = 2) -> str:
    """``value`` with ``digits`` decimals, U+2212 as minus sign and no negative zero."""
    if not math.isfinite(value):
        raise ValueError(f"refusing to display a non-finite number ({value!r})")
    text = f"{value:.{digits}f}"
    if text.startswith("-"):
        text = text[1:] if float(text) == 0 else MINUS + text[1:]
    return text


def plain_num(value: float, digits: int = 2) -> str:
    """Like ``num`` but with an ASCII hyphen-minus, for values no reader reads as text: a
    range input's bounds and value, ``aria-valuenow``, SVG coordinates."""
    return num(value, digits).replace(MINUS, "-")


def percent_shares(probabilities: list[float], digits: int = 1) -> list[float]:
    """Percentages rounded to ``digits`` decimals that add up to exactly 100.

    Largest-remainder rounding: every entry is rounded down, then the entries that lost the
    most get one unit back until the total is 100. Each shown value is therefore within one
    unit of its exact value (it is the exact value rounded down or up), and the column adds
    up. For the usual cases (the softmax of [1.5, 2.0, 3.0]) this equals plain rounding.
    """
    total = math.fsum(probabilities)
    if not probabilities or total <= 0 or not math.isfinite(total):
        raise ValueError("percent_shares needs finite, non-negative weights with a positive sum")
    unit = 10**digits
    exact = [100 * unit * p / total for p in probabilities]
    floors = [math.floor(x) for x in exact]
    missing = 100 * unit - sum(floors)
    order = sorted(range(len(exact)), key=lambda i: (floors[i] - exact[i], i))
    for i in order[:missing]:
        floors[i] += 1
    return [f / unit for f in floors]


def subscript(number: int) -> str:
    """``number`` in subscript digits, for names such as x₁ and p₁₂."""
    return str(number).translate(_SUBSCRIPTS)


# --------------------------------------------------------------------------- a language's numbers

# The keys of a strings file's ``common`` section that say how the language writes numbers.
NUMBER_KEYS = ("digits", "decimal", "percent", "measured")
# ``common.measured``: the figures' measured values written like the prose's numbers, or as
# Python prints them (Latin digits, "." and "%"), like mathematics in Latin digits.
MEASURED_STYLES = ("prose", "latin")
# Kept out of the separators, so that a formatted number is safe as markup and as a template.
_NOT_IN_SIGNS = set("<>&\"'{}")
PERCENT_EXAMPLE = '"{value}%" or, with a no-break space, "{value}\\u00a0%"'


def number_key_problem(key: str, value: str) -> str | None:
    """What is wrong with ``value`` as ``common.<key>`` (one of ``NUMBER_KEYS``), or None.

    The one check of these keys: ``check_strings`` reports it for a translator, and a
    ``NumberFormat`` refuses to exist with it.
    """
    if key == "digits":
        if len(value) != 10 or any(not ch.isdecimal() or int(ch) != i for i, ch in enumerate(value)):
            return "must be the ten digits 0-9 of the language, in order"
    elif key == "decimal":
        if len(value) != 1 or value.isalnum() or value.isspace() or value in _NOT_IN_SIGNS:
            return 'must be the one character between whole and fraction: ".", "," or "٫"'
    elif key == "percent":
        sign = value.replace("{value}", "", 1)
        if (
            value.count("{value}") != 1
            or not sign.strip()
            or set(sign) & _NOT_IN_SIGNS
            or any(c.isdigit() for c in sign)
        ):
            return f"must be {{value}} once and the percent sign where the language puts it: {PERCENT_EXAMPLE}"
        if " " in sign:
            return (
                "the space may break the line between the number and its sign: "
                "use a no-break space (\\u00a0, or \\u202f narrow) in double quotes"
            )
    elif key == "measured":
        if value not in MEASURED_STYLES:
            return f"must be {' or '.join(repr(style) for style in MEASURED_STYLES)}"
    else:
        raise KeyError(f"not a number key: {key!r} (one of {', '.join(NUMBER_KEYS)})")
    return None


@dataclass(frozen=True)
class NumberFormat:
    """How a language writes a number: its ``digits`` 0-9, its ``decimal`` separator, and its
    ``percent`` template (``"{value} %"``).

    One method per kind of number: ``count`` (a whole number), ``num`` (a measured value
    with fixed decimals), ``pct`` (a percentage), ``plain`` (a value a reader types into a
    box or hears in an accessible name), and ``join`` for a list of them. No thousands
    separator: no figure shows a number over 999, and "2000" reads in every language.
    """

    digits: str = LATIN_DIGITS
    decimal: str = "."
    percent: str = "{value}%"

    def __post_init__(self) -> None:
        for key in ("digits", "decimal", "percent"):
            problem = number_key_problem(key, getattr(self, key))
            if problem:
                raise ValueError(f"common.{key} {getattr(self, key)!r}: {problem}")

    def count(self, number: int) -> str:
        """A whole number: "8", "۸"."""
        return self._written(str(number))

    def num(self, value: float, digits: int = 2) -> str:
        """``value`` with ``digits`` decimals: "0.56", "0,56", "−1.20" (see ``num``)."""
        return self._written(num(value, digits))

    def pct(self, share: float, digits: int = 1) -> str:
        """A percentage already in percent units (see ``percent_shares``): "99.2%", "99,2 %"."""
        return self.percent.replace("{value}", self.num(share, digits))

    def plain(self, value: float, digits: int = 2) -> str:
        """Like ``num`` with an ASCII hyphen-minus: text a reader edits in a box, or an
        accessible name's values (the page reads either back with ``parse_number``)."""
        return self.num(value, digits).replace(MINUS, "-")

    @property
    def separator(self) -> str:
        """What stands between two numbers of a list: "," or, with a decimal comma, ";", so
        that a comma never stands both inside a number and between two (ISO 80000-1)."""
        return ";" if self.decimal == "," else ","

    def join(self, numbers: Iterable[str]) -> str:
        """Written numbers as a list: "0.50, 1.00", "0,50; 1,00"."""
        return f"{self.separator} ".join(numbers)

    def coordinates(self, values: Iterable[float], digits: int = 2) -> str:
        """A vector's entries as a point is written: "(0.50, 1.00)", "(0,50; 1,00)"."""
        return f"({self.join(self.num(v, digits) for v in values)})"

    def read(self, text: str) -> float:
        """The value of a number this format wrote (``num``, ``pct`` without its sign, ``count``):
        the inverse the tests use to read a figure's numbers back."""
        before, _, after = self.percent.partition("{value}")
        text = text.strip()
        if after.strip() and text.endswith(after):
            text = text[: -len(after)]
        if before.strip() and text.startswith(before):
            text = text[len(before) :]
        text = text.translate(str.maketrans(self.digits, LATIN_DIGITS)).replace(self.decimal, ".")
        return float(text.replace(MINUS, "-"))

    def _written(self, text: str) -> str:
        if self.decimal != ".":
            text = text.replace(".", self.decimal)
        return text if self.digits == LATIN_DIGITS else text.translate(str.maketrans(LATIN_DIGITS, self.digits))


LATIN = NumberFormat()
"""Numbers as Python prints them: 0-9, ".", "%"."""
