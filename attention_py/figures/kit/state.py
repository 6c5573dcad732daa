"""Figure state: declared fields, normalisation, and changes sent by the page.

A figure's state is a small JSON-able dict. Each figure declares its fields once (type,
range, default); ``normalise`` turns any candidate state (an author's YAML block, the
page's last state plus one change) into the full, valid state:

* numbers outside their range are clamped (a slider can never go too far);
* anything that is not a number where a number belongs - text, ``None``, NaN, infinity -
  is refused with a ``StateError`` (a ``ValueError``) naming the key, so a typo in a
  Markdown block fails the build and a bad entry in a text box shows a clear message;
* unknown keys are refused, listing the known ones.

Numbers may also arrive as text, because form controls deliver text: "1.5", " -2 ",
Persian or Arabic-Indic digits ("۱٫۵"), a decimal comma ("1,5") and U+2212 minus are all
understood.
"""

from __future__ import annotations

import copy
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


class StateError(ValueError):
    """A state value that cannot be used; ``key`` is the dotted path of the culprit, ``limit``
    the length it may not pass, for a value refused as too long."""

    def __init__(self, key: str, message: str, limit: int | None = None) -> None:
        super().__init__(f"{key}: {message}")
        self.key, self.limit = key, limit


_DIGITS = {ord(c): str(i) for i, c in enumerate("۰۱۲۳۴۵۶۷۸۹")}
_DIGITS.update({ord(c): str(i) for i, c in enumerate("٠١٢٣٤٥٦٧٨٩")})
_DIGITS.update({0x066B: ".", 0x2212: "-", 0x066C: "", ord(","): ".", 0x200E: "", 0x200F: ""})


def parse_number(value: Any, key: str) -> float:
    """A finite float from a number or from text a person typed; StateError otherwise."""
    if isinstance(value, bool):
        raise StateError(key, f"expected a number, got {value!r}")
    if isinstance(value, numbers.Real):
        number = float(value)
    elif isinstance(value, str):
        text = value.translate(_DIGITS).strip()
        if text.count(".") > 1:
            raise StateError(key, f"expected a number, got {value!r}")
        try:
            number = float(text)
        except ValueError:
            raise StateError(key, f"expected a number, got {value!r}") from None
    else:
        raise StateError(key, f"expected a number, got {type(value).__name__}")
    if not math.isfinite(number):
        raise StateError(key, f"expected a finite number, got {value!r}")
    return number


def clamp(x: float, lo: float, hi: float) -> float:
    """``x`` moved into [lo, hi]."""
    return lo if x < lo else hi if x > hi else x


def snap(x: float, quantum: float | None) -> float:
    """``x`` rounded to the nearest multiple of ``quantum`` (unchanged without one)."""
    if not quantum:
        return x
    return round(round(x / quantum) * quantum, 10)


class Field:
    """One state entry: its default and how to clean a candidate value."""

    default: Any

    def clean(self, value: Any, key: str) -> Any:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass(frozen=True)
class Number(Field):
    """A real number clamped to [lo, hi], optionally snapped to multiples of ``quantum``."""

    lo: float
    hi: float
    default: float
    quantum: float | None = None

    def clean(self, value: Any, key: str) -> float:
        clamped = clamp(parse_number(value, key), self.lo, self.hi)
        return clamp(snap(clamped, self.quantum), self.lo, self.hi)


@dataclass(frozen=True)
class Integer(Field):
    """An integer clamped to [lo, hi]; 2.6 becomes 3 (a slider position, not a count to refuse)."""

    lo: int
    hi: int
    default: int

    def clean(self, value: Any, key: str) -> int:
        return round(clamp(parse_number(value, key), self.lo, self.hi))


@dataclass(frozen=True)
class Choice(Field):
    """One of a fixed set of options (strings or integers); anything else is refused."""

    options: tuple[Any, ...]
    default: Any

    def clean(self, value: Any, key: str) -> Any:
        if not isinstance(value, bool):
            for option in self.options:
                if value == option and isinstance(value, (str, numbers.Real)):
                    return option
            numeric = all(isinstance(o, numbers.Real) and not isinstance(o, bool) for o in self.options)
            if isinstance(value, str) and numeric:  # typed, or read from the page's address
                try:
                    number = parse_number(value, key)
                except StateError:
                    pass  # refused below
                else:
                    for option in self.options:
                        if number == option:
                            return option
        raise StateError(key, f"expected one of {list(self.options)}, got {value!r}")


@dataclass(frozen=True)
class Flag(Field):
    """True/False; also accepts 1/0 and the strings "true"/"false"/"on"/"off"."""

    default: bool

    def clean(self, value: Any, key: str) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, numbers.Integral) and int(value) in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "on", "off", "1", "0"):
            return value.strip().lower() in ("true", "on", "1")
        raise StateError(key, f"expected true or false, got {value!r}")


def _items(value: Any, key: str) -> Sequence[Any]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise StateError(key, f"expected a list, got {type(value).__name__}")
    return value


@dataclass(frozen=True)
class Numbers(Field):
    """A list of numbers, each clamped to [lo, hi]; its length must lie in [min_len, max_len]."""

    lo: float
    hi: float
    default: tuple[float, ...]
    min_len: int
    max_len: int
    quantum: float | None = None

    def clean(self, value: Any, key: str) -> list[float]:
        items = _items(value, key)
        if not self.min_len <= len(items) <= self.max_len:
            raise StateError(key, f"expected between {self.min_len} and {self.max_len} numbers, got {len(items)}")
        entry = Number(self.lo, self.hi, 0.0, self.quantum)
        return [entry.clean(item, f"{key}.{i}") for i, item in enumerate(items)]


@dataclass(frozen=True)
class Vectors(Field):
    """A fixed number of fixed-length vectors (a small matrix), entries clamped to [lo, hi]."""

    lo: float
    hi: float
    default: tuple[tuple[float, ...], ...]
    quantum: float | None = None

    def clean(self, value: Any, key: str) -> list[list[float]]:
        rows = _items(value, key)
        count, width = len(self.default), len(self.default[0])
        if len(rows) != count:
            raise StateError(key, f"expected {count} vectors, got {len(rows)}")
        row_field = Numbers(self.lo, self.hi, (), width, width, self.quantum)
        return [row_field.clean(row, f"{key}.{i}") for i, row in enumerate(rows)]


@dataclass(frozen=True)
class Subset(Field):
    """Some of a fixed list of options, kept in the options' order, without repeats."""

    options: tuple[str, ...]
    default: tuple[str, ...]
    min_len: int = 0

    def clean(self, value: Any, key: str) -> list[str]:
        chosen = set()
        for i, item in enumerate(_items(value, key)):
            if item not in self.options:
                raise StateError(f"{key}.{i}", f"expected one of {list(self.options)}, got {item!r}")
            chosen.add(item)
        if len(chosen) < self.min_len:
            raise StateError(key, f"choose at least {self.min_len} of {list(self.options)}")
        return [option for option in self.options if option in chosen]


@dataclass(frozen=True)
class Writing(Field):
    """Text the reader wrote (lines of a box), at most ``limit`` characters, line ends as
    "\n"; anything but a string is refused. What the text may say is the figure's to check."""

    limit: int
    default: str = ""

    def clean(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            raise StateError(key, f"expected text, got {type(value).__name__}")
        if len(value) > self.limit:
            raise StateError(key, f"expected at most {self.limit} characters, got {len(value)}", self.limit)
        return value.replace("\r\n", "\n").replace("\r", "\n")


Schema = Mapping[str, Field]


@dataclass(frozen=True)
class StateSpec:
    """The declared fields of a figure, plus a hook for rules that span several fields."""

    fields: Schema
    relate: Callable[[dict[str, Any]], dict[str, Any]] | None = field(default=None)

    def normalise(self, state: Any) -> dict[str, Any]:
        """The full, valid state for ``state`` (``None`` or ``{}`` give the defaults)."""
        if state is None:
            state = {}
        if not isinstance(state, Mapping):
            raise StateError("state", f"expected a mapping of keys to values, got {type(state).__name__}")
        unknown = [key for key in state if key not in self.fields]
        if unknown:
            raise StateError(str(unknown[0]), f"unknown key; known keys are {', '.join(self.fields)}")
        clean = {}
        for key, spec in self.fields.items():
            value = state[key] if key in state else _listify(spec.default)
            clean[key] = spec.clean(value, key)
        return self.relate(clean) if self.relate else clean


def _listify(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_listify(v) for v in value]
    return value


def apply_changes(state: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``state`` with each dotted path in ``changes`` set ("z.1" is state["z"][1]).

    This is how the page talks to a figure: a slider named "z.1" sends {"z.1": "2.5"}, a
    button sends a ready-made mapping such as {"a": [1, 0]}. The result still has to go
    through ``normalise``.
    """
    if not isinstance(changes, Mapping):
        raise StateError("changes", f"expected a mapping of paths to values, got {type(changes).__name__}")
    result = copy.deepcopy(dict(state))
    for path, value in changes.items():
        parts = str(path).split(".")
        target: Any = result
        for depth, part in enumerate(parts[:-1]):
            target = _step(target, part, ".".join(parts[: depth + 1]))
        last = parts[-1]
        if isinstance(target, list):
            index = _index(target, last, str(path))
            target[index] = value
        elif isinstance(target, dict):
            target[last] = value
        else:
            raise StateError(str(path), "this path does not lead into the state")
    return result


def _step(target: Any, part: str, path: str) -> Any:
    if isinstance(target, list):
        return target[_index(target, part, path)]
    if isinstance(target, dict) and part in target:
        return target[part]
    raise StateError(path, "this path does not lead into the state")


def _index(items: list[Any], part: str, path: str) -> int:
    if not part.isdigit() or int(part) >= len(items):
        raise StateError(path, f"no entry {part!r} here (there are {len(items)})")
    return int(part)
