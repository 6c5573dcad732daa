"""Immutable inputs too big for a figure's ``data-state``: provided once, read by every call.

A figure that reads a resource (the checkpoints of the model trained at build time) names
it by a key, ``"training/en"``; its root carries ``data-resource="training/en"``. The data
itself is the site's file ``assets/<key>.json``:

* natively, the build registers a loader (``set_loader``) that produces the data for a key
  (site_hooks/content/figures.py: the model trained at build time), so prerendering works;
* in the page, the generic host fetches ``assets/<key>.json`` (same origin) when Python
  answers a call with ``{"ok": false, "missing_resource": key}``, hands it over once with
  ``attention_py.figures.provide(key, data)``, and sends its change again.

The data is kept as given and never changed; what figures derive from it (parsed models)
is cached per key and dropped when the key is provided again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_KEY = re.compile(r"^[a-z0-9][a-z0-9_-]*(/[a-z0-9][a-z0-9_-]*)*$")

_PROVIDED: dict[str, Any] = {}
_DERIVED: dict[tuple[str, Any], Any] = {}
_loader: Callable[[str], Any] | None = None


class MissingResource(LookupError):
    """A figure needs data that nobody has provided yet; ``key`` names it."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the figure needs the resource {key!r} (assets/{key}.json); provide it first "
                         "with attention_py.figures.provide(key, data)")
        self.key = key


def check_key(key: Any) -> str:
    if not isinstance(key, str) or not _KEY.match(key):
        raise ValueError(f"a resource key is lower-case words separated by '/', got {key!r}")
    return key


def provide(key: str, data: Any) -> dict[str, Any]:
    """Keeps ``data`` as the resource ``key`` (replacing an earlier one); returns ``{"ok": True, "key"}``."""
    check_key(key)
    _PROVIDED[key] = data
    for derived in [k for k in _DERIVED if k[0] == key]:
        del _DERIVED[derived]
    return {"ok": True, "key": key}


def set_loader(loader: Callable[[str], Any] | None) -> None:
    """Natively: a function giving the data of a key when no one has provided it."""
    global _loader
    _loader = loader


def resource(key: str) -> Any:
    """The data provided as ``key`` (or loaded by the native loader); MissingResource otherwise."""
    if key not in _PROVIDED:
        if _loader is None:
            raise MissingResource(key)
        _PROVIDED[key] = _loader(check_key(key))
    return _PROVIDED[key]


def derived(key: str, name: Any, make: Callable[[Any], Any]) -> Any:
    """``make(resource(key))`` computed once per provided value (a parsed model, a puzzle)."""
    data = resource(key)
    slot = (key, name)
    if slot not in _DERIVED:
        _DERIVED[slot] = make(data)
    return _DERIVED[slot]
