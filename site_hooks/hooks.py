"""The site's one hook file (mkdocs.yml, ``hooks:``): the build's stages in their order, and
the build's state handed to them.

MkDocs runs the handlers of an event (a plugin's or hook file's ``on_<event>``) by priority,
higher first (``@event_priority``; the default is 0, static-i18n's are 50 and -100,
mkdocs-jupyter's 100), and those of one priority in the order they were registered. A stage
is a module below that handles events: for each event, and each priority a stage's handler
of it has, this file gives MkDocs one handler, which calls the stages' handlers of that
priority in the order of ``STAGES``. So a stage's priority places it among the plugins (the
stage says why beside its ``@event_priority``), ``STAGES`` orders the stages of one priority,
and ``RUNS_AFTER`` names each order the site depends on, and why; tests/site_hooks/test_hooks.py
checks that the priorities and ``STAGES`` keep every one.

The state: ``BUILDS``, the first stage, makes a ``Build`` (site_hooks/build.py) each time a
build starts, which ``mkdocs serve`` does again in this process for every change;
static-i18n's builds of the other languages belong to the build that started them. Every
stage handler, and every custom fence of mkdocs.yml (``pymdownx.superfences``), that names a
``build`` parameter is handed the build in progress.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import EVENTS, CombinedEvent, event_priority

from site_hooks.assets import offline, publish
from site_hooks.build import Build
from site_hooks.content import figure_pages, formulas, induction, notebooks, training
from site_hooks.guards import accessibility, script_policy, self_hosted
from site_hooks.i18n import language_checks, language_links, line_breaks, not_found, search, translations


class Builds:
    """The first stage: the build in progress, new when a build starts."""

    def __init__(self) -> None:
        self.command = "build"
        self.current: Build | None = None

    def on_startup(self, command: str, **kwargs: Any) -> None:
        self.command = command  # once per process: "build", "serve" or "gh-deploy"

    @event_priority(1000)  # before every stage's, and before static-i18n (-100) says which language is built
    def on_config(self, config: MkDocsConfig) -> None:
        i18n = config.plugins.get("i18n")
        if i18n is None or i18n.current_language is None:  # not static-i18n's build of another language
            self.current = Build(serving=self.command == "serve")
            hand_fences_the_build(config["mdx_configs"], self.current)


BUILDS = Builds()

# The stages, in the order they run where they handle an event at the same priority. Every
# order the site depends on is in RUNS_AFTER; today priorities keep them all, and no two
# stages of one priority depend on each other's order (this one is the order mkdocs.yml
# listed them in).
STAGES: tuple[Any, ...] = (
    BUILDS,
    language_checks,
    line_breaks,
    figure_pages,
    notebooks,
    formulas,
    training,
    induction,
    publish,
    offline,
    language_links,
    search,
    accessibility,
    not_found,
    self_hosted,
    translations,
    script_policy,
)


@dataclass(frozen=True)
class After:
    """``stage``'s handler of ``event`` must run after those of ``stages``, because ``why``."""

    stage: Any
    event: str
    stages: tuple[Any, ...]
    why: str


def _all_but(*stages: Any) -> tuple[Any, ...]:
    return tuple(stage for stage in STAGES if all(stage is not other for other in stages))


RUNS_AFTER: tuple[After, ...] = (
    *(
        After(stage, "config", (BUILDS,), "it is handed the build, which BUILDS makes when a build starts")
        for stage in _all_but(BUILDS)
        if hasattr(stage, "on_config")
    ),
    *(
        After(
            script_policy,
            event,
            _all_but(script_policy),
            "the policy allows the page's inline scripts by their hash: a later change to one would block it",
        )
        for event in ("post_page", "post_template")
    ),
    *(
        After(
            self_hosted,
            event,
            _all_but(self_hosted, script_policy),
            "it checks what the page loads once nothing else adds to it (the policy adds no loader)",
        )
        for event in ("post_page", "post_template")
    ),
    After(
        offline,
        "post_build",
        (search,),
        "sw.js lists every file of the site with its digest, the languages' search indexes included",
    ),
)


# --- the handlers MkDocs calls ---------------------------------------------------------------


def priority_of(handler: Callable[..., Any]) -> float:
    """The priority MkDocs gives ``handler`` (0 unless ``@event_priority`` says otherwise)."""
    return float(getattr(handler, "mkdocs_priority", 0))


def takes_build(function: Callable[..., Any]) -> bool:
    """Whether ``function`` names a ``build`` parameter (a callable without a signature does not)."""
    try:
        return "build" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def run_order(event: str, stages: tuple[Any, ...] = STAGES) -> list[tuple[Any, Callable[..., Any]]]:
    """``(stage, handler)`` of each stage that handles ``event``, in the order they run: by
    priority, higher first, then in the order of ``stages``, as MkDocs runs what it registers."""
    found = [(stage, handler) for stage in stages if callable(handler := getattr(stage, f"on_{event}", None))]
    return sorted(found, key=lambda pair: -priority_of(pair[1]))  # stable: STAGES breaks ties


def _current_build() -> Build:
    if BUILDS.current is None:
        raise RuntimeError("no build in progress: BUILDS makes one in the first on_config")
    return BUILDS.current


def _calling_in_order(event: str, priority: float, handlers: list[Callable[..., Any]]) -> Callable[..., Any]:
    """One handler for MkDocs: ``handlers`` called as MkDocs calls each (the item, such as the
    page's HTML, positional and passed on from one to the next; the rest by name)."""
    wants_build = [takes_build(handler) for handler in handlers]

    def run(*item: Any, **kwargs: Any) -> Any:
        for handler, wants in zip(handlers, wants_build, strict=True):
            result = handler(*item, **kwargs, build=_current_build()) if wants else handler(*item, **kwargs)
            if item and result is not None:
                item = (result,)
        return item[0] if item else None

    run.__name__ = run.__qualname__ = f"on_{event}_at_{priority:g}"
    run.handlers = tuple(handlers)  # type: ignore[attr-defined]  # what it calls, for tests/site_hooks/test_hooks.py
    return event_priority(priority)(run)


def handler_of(event: str, stages: tuple[Any, ...] = STAGES) -> CombinedEvent[..., Any] | None:
    """What this file gives MkDocs for ``event``: per priority, one handler calling the stages'."""
    by_priority: dict[float, list[Callable[..., Any]]] = {}
    for _, handler in run_order(event, stages):
        by_priority.setdefault(priority_of(handler), []).append(handler)
    if not by_priority:
        return None
    return CombinedEvent(*(_calling_in_order(event, p, handlers) for p, handlers in by_priority.items()))


def hand_fences_the_build(mdx_configs: Mapping[str, Any], build: Build) -> None:
    """Binds ``build`` to the functions of the custom fences (pymdownx.superfences'
    ``custom_fences`` in mkdocs.yml) that name a ``build`` parameter: superfences hands a fence
    only the Markdown object, and the Markdown of each page is made with these settings."""
    for fence in (mdx_configs.get("pymdownx.superfences") or {}).get("custom_fences", []):
        for key in ("validator", "format"):
            function = fence.get(key)
            if isinstance(function, functools.partial) and "build" in function.keywords:
                function = function.func  # bound to an earlier build of this configuration
            if function is not None and takes_build(function):
                fence[key] = functools.partial(function, build=build)


for _event in EVENTS:
    if (_handler := handler_of(_event)) is not None:
        globals()[f"on_{_event}"] = _handler
