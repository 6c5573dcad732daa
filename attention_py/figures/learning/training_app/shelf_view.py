"""train_live's shelf on the page: the kept runs listed with their recipes, their test
accuracy drawn on one chart, and the actions on them (figures/README.md, "Actions").

A finished run of the reader's is kept by itself; the build's run a link opened is kept with
"Keep this run". ``do.export`` hands the reader a run's file (JSON) or the chart (SVG; the
page makes a PNG of it), ``do.import`` reads a file back (refused with the reason in the
page's language, nothing else changing), ``do.restore`` puts back the files the page stored
before a reload (the ones this build refuses are dropped), ``do.forget`` takes one run or all
off. ``stored`` gives the page the shelf's files whenever it changed. An imported run that is
not the site's own run of its recipe is listed with its origin (shelf.py, ``ORIGINS``):
"imported, not verified", or "differs from the site's run". A refusal quotes at most
``EXCERPT_MAX_CHARS`` of what it was given (``excerpt``).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any

from ...kit.chart import LEFT, TICK, H, StepChart, W
from ...kit.figure import ActionRefused
from ...kit.html import el, esc, to_json, void
from ...kit.live import Session
from ...kit.strings import Text, excerpt
from ...kit.svg import f, svg
from ..views import RIGHT
from .run import SHOWN, Run, build_defaults, run_record
from .shelf import (
    Kept,
    RunFileError,
    Shelf,
    import_origin,
    read_run_file,
    read_stored_file,
    run_file,
    stored_file,
)

STRINGS = tuple(
    """
    shelf_title shelf_empty shelf_caption shelf_number shelf_recipe shelf_loss shelf_test
    shelf_build_recipe shelf_keep shelf_import shelf_export shelf_forget shelf_forget_all
    shelf_save_svg shelf_save_png shelf_chart shelf_chart_run shelf_origin_imported
    shelf_origin_differs file_too_big file_too_deep file_not_json file_not_finite file_not_run
    file_language file_bad_part
    """.split()  # noqa: SIM905
)
STYLES = 6  # line styles, told apart by dash as well as colour


LiveSession = Session[Run, Shelf]
"""train_live's session: its work is a ``Run``, and it keeps a ``Shelf`` across runs."""
Shown = Callable[[LiveSession, dict[str, Any], str], dict[str, Any] | None]
"""(session, state, lang) -> the record of the finished run shown, or None."""


def shelf_of(session: LiveSession, lang: str) -> Shelf:
    """The session's shelf (made on first use; a new session takes the old one over)."""
    if session.kept is None:
        session.kept = Shelf(lang)
    return session.kept


def keep_finished(session: LiveSession, state: dict[str, Any], lang: str) -> None:
    """Keeps the session's run on the shelf once it has reached its end (once per run)."""
    run = session.work
    if not run.kept and run.report(state["steps"]) is not None:
        shelf_of(session, lang).keep(run_record(run, state))
        run.kept = True


class ShelfActions:
    """train_live's actions (``RunningFigure.actions``)."""

    names: tuple[str, ...] = ("keep", "forget", "export", "import", "restore")

    def __init__(self, shown: Shown) -> None:
        self.shown = shown

    def act(self, name: str, value: Any, session: LiveSession, state: dict[str, Any], text: Text) -> dict[str, Any]:
        lang = text.lang
        shelf = shelf_of(session, lang)
        if name == "keep":
            record = self.shown(session, state, lang)
            if record is not None:
                shelf.keep(record)
        elif name == "forget":
            shelf.forget(None if value == "all" else _number(value, name, text))
        elif name == "export":
            return {"file": _export(shelf, value, name, text)}
        elif name == "import":
            try:
                record = read_run_file(value, lang)
            except RunFileError as error:
                raise ActionRefused(name, refusal(error, text), str(error)) from None
            shelf.keep(record, import_origin(record, lang))
        elif name == "restore":
            for file in value if isinstance(value, list) else []:
                with suppress(RunFileError):  # a run this build cannot show (another build's): not kept
                    shelf.keep(*read_stored_file(file, lang))
            shelf.reported = -1  # the page stores what was kept, so a refused file goes
        return {}

    def stored(self, session: LiveSession) -> dict[str, Any] | None:
        shelf = session.kept
        if shelf is None or shelf.reported == shelf.version:
            return None
        shelf.reported = shelf.version
        return {"runs": [stored_file(kept, shelf.lang) for kept in shelf.runs]}


def refusal(error: RunFileError, text: Text) -> str:
    """Why a file was refused, in the page's language: the part named and quoted short, the
    limit crossed."""
    quoted = excerpt(error.part)
    limit = {"limit": text.count(error.limit)} if error.limit is not None else {}
    return text.plain(error.key, part=quoted, language=quoted, **limit)


def _number(value: Any, action: str, text: Text) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ActionRefused(action, text.plain("common.bad_input", value=excerpt(value)), f"{action}: not a run number")


def _export(shelf: Shelf, value: Any, action: str, text: Text) -> dict[str, str]:
    """The file asked for: a kept run's (its number) or the chart's (``"svg"``, ``"png"``)."""
    if value in ("svg", "png") and shelf.runs:
        picture = chart(shelf.runs, text, standalone=True)
        return {"name": f"runs-{text.lang}.svg", "type": "image/svg+xml", "text": picture, "as": value}
    kept = shelf.get(_number(value, action, text))
    if kept is None:
        raise ActionRefused(action, text.plain("common.bad_input", value=excerpt(value)), f"{action}: no run {value}")
    return {
        "name": f"run-{kept.number}-{text.lang}.json",
        "type": "application/json",
        "text": run_file(kept, text.lang),
    }


def recipe_summary(recipe: dict[str, Any], t: Text) -> str:
    """How a run's recipe differs from the build's (markup): "positions: none · layers: 1"."""
    defaults = build_defaults(t.lang)
    changed = [k for k in SHOWN if recipe[k] != defaults.get(k)]
    if not changed:
        return t.html("shelf_build_recipe")
    return " · ".join(f"{t.html(k)}: {_value(k, recipe[k], t)}" for k in changed)


def _value(key: str, value: Any, t: Text) -> str:
    if key in ("positions", "data"):
        return t.html(f"{key}_{value}")
    if key == "causal":
        return t.html("causal_on" if value else "causal_off")
    if isinstance(value, float):  # a learning rate: 0.003 as three decimals, 0.1 as one
        written = t.prose_numbers.num(value, len(repr(value).partition(".")[2]))
        return el("span", {"dir": "ltr", "class": "apy-num"}, esc(written))
    return esc(t.count(value))


def shelf_panel(shelf: Shelf | None, t: Text, can_keep: bool) -> str:
    """The shelf: its table of runs, their chart, and the buttons that act on it."""
    runs = shelf.runs if shelf is not None else []
    kept = runs_table(runs, t) + chart(runs, t) if runs else el("p", {"class": "apy-muted"}, t.html("shelf_empty"))
    return el(
        "section",
        {"class": "apy-shelf", "aria-label": t.plain("shelf_title")},
        el("p", {"class": "apy-shelf__title"}, t.html("shelf_title")),
        kept,
        shelf_buttons(runs, t, can_keep),
    )


def action_button(label: str, action: str, value: Any, disabled: bool = False) -> str:
    """A button that does ``action`` with ``value`` (``{"do.<action>": value}``)."""
    return el(
        "button",
        {
            "type": "button",
            "class": "apy-button",
            "data-set": to_json({f"do.{action}": value}),
            "data-focus-key": f"shelf:{action}:{value if isinstance(value, str) else to_json(value)}",
            "disabled": disabled,
        },
        label,
    )


def runs_table(runs: list[Kept], t: Text) -> str:
    """The kept runs, a row each (number, recipe, final loss and test accuracy), then each
    run's buttons below the table, not in it: a phone's narrow table keeps its words."""
    rows = "".join(
        el(
            "tr",
            {"data-run": str(kept.number)},
            el("th", {"scope": "row"}, esc(t.count(kept.number))),
            el("td", {}, recipe_summary(kept.run.recipe, t) + _origin(kept, t)),
            el("td", {}, _final(kept, "loss", t)),
            el("td", {}, _final(kept, "test_accuracy", t)),
        )
        for kept in runs
    )
    per_run = el(
        "div",
        {"class": "apy-row apy-shelf__acts"},
        *(
            action_button(t.html(f"shelf_{action}", number=esc(t.count(kept.number))), action, kept.number)
            for kept in runs
            for action in ("export", "forget")
        ),
    )
    head = el(
        "tr",
        {},
        *(el("th", {"scope": "col"}, t.html(k)) for k in ("shelf_number", "shelf_recipe", "shelf_loss", "shelf_test")),
    )
    table = el(
        "table",
        {"class": "apy-probs apy-shelf__runs"},
        el("caption", {}, t.html("shelf_caption")),
        el("thead", {}, head),
        el("tbody", {}, rows),
    )
    return table + per_run


def shelf_buttons(runs: list[Kept], t: Text, can_keep: bool) -> str:
    """Keep the run shown, import a file, save the chart, forget every run."""
    picker = el(
        "label",
        {"class": "apy-button apy-file"},
        el("span", {}, t.html("shelf_import")),
        void("input", {"type": "file", "accept": ".json,application/json", "data-import": "do.import"}),
    )
    return el(
        "div",
        {"class": "apy-row"},
        action_button(t.html("shelf_keep"), "keep", True, disabled=not can_keep),
        picker,
        action_button(t.html("shelf_save_svg"), "export", "svg", disabled=not runs),
        action_button(t.html("shelf_save_png"), "export", "png", disabled=not runs),
        action_button(t.html("shelf_forget_all"), "forget", "all", disabled=not runs),
    )


def _origin(kept: Kept, t: Text) -> str:
    """An imported run's origin under its recipe, when it is not the site's own run."""
    if kept.origin is None:
        return ""
    return el("span", {"class": "apy-shelf__origin"}, t.html(f"shelf_origin_{kept.origin}"))


def _final(kept: Kept, key: str, t: Text) -> str:
    value = kept.run.history[-1][key]
    written = t.numbers.pct(100 * value, 0) if key.endswith("accuracy") else t.numbers.num(value, 2)
    return el("span", {"dir": "ltr", "class": "apy-num"}, esc(written))


def chart(runs: list[Kept], t: Text, *, standalone: bool = False) -> str:
    """The test accuracy of every kept run against the step, one line each, labelled with its
    number at its end. ``standalone``: with its own styles and a background (a file)."""
    span = max((kept.run.step for kept in runs), default=1) or 1
    frame = StepChart(span, RIGHT)
    x, y = frame.x, frame.y
    parts = [
        void_line(LEFT, y(0), W - RIGHT, y(0), "apy-axis"),
        void_line(LEFT, y(0), LEFT, y(1), "apy-axis"),
        void_line(LEFT, y(0.5), W - RIGHT, y(0.5), "apy-grid"),
        void_line(LEFT, y(1), W - RIGHT, y(1), "apy-grid"),
        *(
            el(
                "text",
                {"class": "apy-tick", "x": f(LEFT - 4), "y": f(y(v) + 4), "text-anchor": "end"},
                t.pct(100 * v, 0),
            )
            for v in (0, 0.5, 1)
        ),
        el("text", {"class": "apy-tick", "x": f(x(0)), "y": f(H - 10), "text-anchor": "middle"}, t.numbers.count(0)),
        el(
            "text",
            {"class": "apy-tick", "x": f(x(span)), "y": f(H - 10), "text-anchor": "middle"},
            t.numbers.count(span),
        ),
    ]
    labels: list[float] = []
    for i, kept in enumerate(runs):
        points = [(p["step"], p["test_accuracy"]) for p in kept.run.history]
        style = f"apy-run apy-run--{i % STYLES}"
        parts.append(
            el(
                "polyline",
                {"class": style, "points": " ".join(f"{f(x(s))},{f(y(v))}" for s, v in points)},
            )
        )
        at = y(points[-1][1]) + 4
        while any(abs(at - other) < TICK for other in labels):  # labels of runs that end together, stacked
            at += TICK
        labels.append(at)
        parts.append(
            el("text", {"class": f"apy-run-label {style}", "x": f(x(points[-1][0]) + 4), "y": f(at)}, f"#{kept.number}")
        )
    label = t.plain(
        "shelf_chart",
        runs="; ".join(
            t.plain(
                "shelf_chart_run",
                number=t.count(kept.number),
                start=t.prose_numbers.pct(100 * kept.run.history[0]["test_accuracy"], 0),
                end=t.prose_numbers.pct(100 * kept.run.history[-1]["test_accuracy"], 0),
                steps=t.count(kept.run.step),
            )
            for kept in runs
        ),
    )
    drawing = svg("".join(parts), width=W, height=H, label=label, cls="apy-curves apy-shelf__chart")
    return _standalone(drawing, t) if standalone else drawing


def void_line(x1: float, y1: float, x2: float, y2: float, cls: str) -> str:
    return el("line", {"class": cls, "x1": f(x1), "y1": f(y1), "x2": f(x2), "y2": f(y2)})


COLOURS = ("#1565c0", "#c2410c", "#2e7d32", "#7b3fb0", "#b8860b", "#455a64")
DASHES = ("none", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")


def _standalone(drawing: str, t: Text) -> str:
    """The chart as a file: its styles inside, on a white background, with a title."""
    rules = "".join(
        f".apy-run--{i}{{stroke:{c};fill:{c}}}polyline.apy-run--{i}{{fill:none;stroke-width:2;stroke-dasharray:{d}}}"
        f"text.apy-run--{i}{{stroke:none}}"
        for i, (c, d) in enumerate(zip(COLOURS, DASHES))
    )
    style = (
        "<style>text{font:11px sans-serif;fill:#1d2127}.apy-tick{fill:#59606b}"
        ".apy-axis{stroke:rgba(0,0,0,.35)}.apy-grid{stroke:rgba(0,0,0,.07)}" + rules + "</style>"
    )
    background = f'<rect width="{f(W)}" height="{f(H)}" fill="#ffffff"/>'
    title = el("title", {}, esc(t.plain("shelf_title")))
    head, _, rest = drawing.partition(">")
    return f'<?xml version="1.0" encoding="utf-8"?>\n{head}>{title}{style}{background}{rest}'
