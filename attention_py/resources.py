"""Data files the site publishes beside the package, read by key: ``resource("training/en")``.

The build trains one model per language and publishes it as ``assets/training/<lang>.json``
(site_hooks/content/training.py). Figures and live cells read it the same way, by its key,
``"training/en"``: the part of the file name under ``assets/``, without ``.json``.

Where the data comes from is set once by whoever runs the package, with ``set_loader``:

* natively, ``site_hooks.content.training.use_build_resources()`` sets the build's loader,
  which trains the model or takes it from the build's cache: the figures' hook calls it when
  the build is configured, and the tests and devtools that draw figures call it themselves,
  so prerendering and the tests read the same data;
* in the page, the session runtime's ``use_site_files`` (docs/widgets/session_runtime.py)
  sets a loader that reads ``assets/<key>.json`` of this site with a synchronous same-origin
  request from the Python worker: the worker is Python's own thread, so nothing on the page
  waits (devtools.examples uses the same loader on the built site);
* anywhere else (a notebook, a terminal), nobody has set one: ``resource`` raises
  ``MissingResource``, and ``provide(key, data)`` hands the data over by hand.

The data of a key is loaded once and kept as given; what figures derive from it (parsed
models) is cached per key and dropped when the key is provided again.

``page_language()`` is the language of the page whose code is running, so that a live cell
reads its own page's model: ``resource(f"training/{page_language()}")``. The page's session
runtime sets it before each cell runs (``set_page_language``); elsewhere it is the
``ATTENTION_PY_LANG`` environment variable if set (a notebook or a terminal that has the
site's data at hand), else English.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Hashable
from typing import Any, cast

_KEY = re.compile(r"^[a-z0-9][a-z0-9_-]*(/[a-z0-9][a-z0-9_-]*)*$")

_PROVIDED: dict[str, Any] = {}
_DERIVED: dict[tuple[str, Hashable], object] = {}
_loader: Callable[[str], Any] | None = None
_LANGUAGE = re.compile(r"^[a-z]{2,3}(_[A-Za-z]{2,4})?$")  # "en", "fa", "pt_BR": the site's folders
_page: dict[str, str] = {}


class MissingResource(LookupError):
    """Data that nobody has provided, and no loader to read it; ``key`` names it."""

    def __init__(self, key: str) -> None:
        super().__init__(
            f"no data for {key!r} (the site's assets/{key}.json) here: hand it over first "
            "with attention_py.resources.provide(key, data)"
        )
        self.key = key


def check_key(key: Any) -> str:
    if not isinstance(key, str) or not _KEY.match(key):
        raise ValueError(f"a resource key is lower-case words separated by '/', got {key!r}")
    return key


def provide(key: str, data: Any) -> None:
    """Keeps ``data`` as the resource ``key`` (replacing an earlier one)."""
    check_key(key)
    _PROVIDED[key] = data
    for derived in [k for k in _DERIVED if k[0] == key]:
        del _DERIVED[derived]


def set_loader(loader: Callable[[str], Any] | None) -> None:
    """The function that gives the data of a key the first time it is asked for (see above)."""
    global _loader
    _loader = loader


def resource(key: str) -> Any:
    """The data of ``key``: provided, or read once by the loader; MissingResource without either."""
    if key not in _PROVIDED:
        if _loader is None:
            raise MissingResource(key)
        _PROVIDED[key] = _loader(check_key(key))
    return _PROVIDED[key]


def derived[T](key: str, name: Hashable, make: Callable[[Any], T]) -> T:
    """``make(resource(key))`` computed once per provided value (a parsed model, a puzzle)."""
    data = resource(key)
    slot = (key, name)
    if slot not in _DERIVED:
        _DERIVED[slot] = make(data)
    return cast(T, _DERIVED[slot])  # made by ``make`` for this slot


def page_language() -> str:
    """The language of the page running this code: set by the page (``set_page_language``),
    else the ``ATTENTION_PY_LANG`` environment variable, else ``"en"``."""
    given = _page.get("lang") or os.environ.get("ATTENTION_PY_LANG", "")
    return given if _LANGUAGE.match(given) else "en"


def set_page_language(lang: str) -> None:
    """Called by the page's session runtime before a cell runs: the page's language."""
    if not isinstance(lang, str) or not _LANGUAGE.match(lang):
        raise ValueError(f"a page language is a code such as 'en', 'fa' or 'pt_BR', got {lang!r}")
    _page["lang"] = lang
