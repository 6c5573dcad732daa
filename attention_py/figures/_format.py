"""Numbers as a reader sees them: fixed decimals, a real minus sign, honest percentages.

Formatting refuses NaN and infinity with an error instead of printing them: the figures
must make sure such values never arise, and the tests drive extreme states through every
figure to prove it.
"""

from __future__ import annotations

import math

MINUS = "\u2212"
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
    """Like ``num`` but with an ASCII hyphen-minus, for form control values."""
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


def pct(share: float, digits: int = 1) -> str:
    """A percentage already in percent units (see ``percent_shares``)."""
    return num(share, digits) + "%"


def localise_digits(text: str, digits: str) -> str:
    """``text`` with the digits 0-9 written in the ten characters of ``digits``.

    For whole numbers that sit in a sentence as words ("the 8 words", "head 2"): Persian
    prose writes them ۸ and ۲. Measured values (weights, scores, percentages) stay in
    Latin digits inside their left-to-right spans, like the mathematics of the articles.
    """
    if len(digits) != 10:
        raise ValueError(f"digits must be the ten digits 0-9 of the language, got {digits!r}")
    return text.translate(str.maketrans("0123456789", digits))


def subscript(number: int) -> str:
    """``number`` in subscript digits, for names such as x₁ and p₁₂."""
    return str(number).translate(_SUBSCRIPTS)
