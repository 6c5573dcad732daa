"""What every figure shares: its declaration and the common frame.

A figure is three things: a ``StateSpec`` (fields, ranges, defaults), the keys of its
translated strings, and a pure ``draw(state, text) -> Panel`` function (``Figure``). A
running figure (``RunningFigure``) also declares how its live work is made; its draw gets
that work too, from the store of sessions its caller passes in (``live.py``). ``render``, the
one way to draw a figure, normalises the state, draws it and wraps it in the frame below, which is the same for all figures so the page's
generic host can treat them alike::

    <div class="apy-fig" data-figure=... data-state=... data-strings=... lang dir role=group>
      <p class="apy-fig__title">...            title
      <div class="apy-fig__body">...           the figure's own controls and drawing
      <p class="apy-fig__readout" aria-live>   one short sentence, announced on change
      <div class="apy-fig__notes">...          captions, honest notes
      <p class="apy-fig__error" role=alert hidden>   filled by the host on bad input
      <p class="apy-fig__static">...           hint shown until the host goes live
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol
from urllib.parse import urlencode

from .html import el, to_json
from .live import Session, Sessions, Work
from .state import StateError, StateSpec
from .strings import Text

COMMON_STRINGS = ("direction", "digits", "static_hint", "bad_input", "text_too_long")

Draw = Callable[[dict[str, Any], "Text"], "Panel"]
"""A figure's draw: (normalised state, its strings) -> Panel."""
type RunningDraw[W: Work, K] = Callable[[dict[str, Any], Text, Session[W, K]], Panel]
"""A running figure's draw: also its session (the live work, and the work before it)."""


@dataclass
class Panel:
    """A drawn figure: ``body`` markup, one ``readout`` sentence (markup), note paragraphs,
    and what the page's host gets besides the markup (``extras``: a file to hand to the
    reader, files to store; figures/README.md, "Actions")."""

    body: str
    readout: str = ""
    notes: list[str] = field(default_factory=list)
    extras: dict[str, Any] = field(default_factory=dict)


ACTION = "do."
"""A change whose path starts so is an action on a running figure's session, not a state value
(``{"do.forget": 2}``): see ``Actions``."""


class ActionRefused(ValueError):
    """An action the figure will not do (a file that is not a run): ``message`` says why in the
    reader's language; nothing has changed."""

    def __init__(self, action: str, message: str, detail: str) -> None:
        super().__init__(detail)
        self.action, self.message = action, message


class Actions[W: Work, K](Protocol):
    """What a running figure does besides drawing (train_live's shelf of runs), to its session
    of work ``W`` that keeps a ``K``."""

    names: tuple[str, ...]  # the actions it knows

    def act(self, name: str, value: Any, session: Session[W, K], state: dict[str, Any], text: Text) -> dict[str, Any]:
        """Does action ``name`` with ``value``; returns what the host gets besides the
        drawing (``{"file": {"name", "type", "text"}}``), or raises ``ActionRefused``."""
        ...

    def stored(self, session: Session[W, K]) -> dict[str, Any] | None:
        """What the page should store for this figure now (it changed since the last
        answer), or None."""
        ...


@dataclass(frozen=True, kw_only=True)
class BaseFigure:
    """What every figure declares: its state, its strings, what it reads besides; and the frame."""

    name: str
    spec: StateSpec
    strings: tuple[str, ...]
    # The key of the data the figure reads besides its state (see attention_py/resources.py), per
    # language: ``lambda lang: f"training/{lang}"``. The root carries it as data-resource.
    resource: Callable[[str], str] | None = None
    # Sections of the strings file shared by several figures that this one reads too.
    shared: tuple[str, ...] = ()

    def defaults(self, lang: str | None) -> dict[str, Any]:
        """Defaults over the spec's on a page of ``lang`` (none but a running figure's)."""
        return {}

    def default_state(self, lang: str | None = None) -> dict[str, Any]:
        """The state a block without YAML shows (on a page of ``lang``, if its defaults depend on it)."""
        return self.spec.normalise(self.defaults(lang))

    def normalise(self, state: Any) -> dict[str, Any]:
        return self.spec.normalise(state)

    def render(
        self,
        state: Any = None,
        *,
        lang: str,
        strings: Mapping[str, Any],
        instance: str | None = None,
        sessions: Sessions | None = None,
    ) -> str:
        """The figure for ``state`` as one self-contained HTML fragment (see module doc).

        ``strings`` is the parsed strings file of language ``lang`` (or the ``data-strings``
        a drawn figure carries); ``instance`` becomes the root's id. A running figure draws
        its session in ``sessions`` (a fresh store when there is none: new work at step 0,
        kept by no one, as the build prerenders it). A bad state raises
        ``StateError`` (a ValueError naming the key), a missing translation
        ``MissingStringError`` naming the file and the key.
        """
        if state is None or isinstance(state, Mapping):
            state = {**self.defaults(lang), **(state or {})}
        clean = self.spec.normalise(state)
        html = self.drawn(clean, lang=lang, strings=strings, instance=instance, sessions=sessions, always=True)[0]
        assert html is not None  # always=True: a drawing
        return html

    def drawn(
        self,
        clean: dict[str, Any],
        *,
        lang: str,
        strings: Mapping[str, Any],
        instance: str | None,
        actions: Mapping[str, Any] | None = None,
        sessions: Sessions | None = None,
        always: bool = False,
    ) -> tuple[str | None, dict[str, Any], dict[str, Any]]:
        """The markup for a normalised state, the state it shows (a running figure's work in
        ``sessions`` moves it on: a training chunk advances the step) and the panel's extras,
        once the ``actions`` (names without ``ACTION``) are done. The markup is None when a
        running figure has nothing new to draw yet (``RunningFigure.redraw_every``): the page
        keeps its drawing and takes the state; ``always`` asks for a drawing regardless."""
        text = Text(strings, lang, self.name, self.shared)
        panel, shown = self.panel(clean, text, instance, actions or {}, sessions, always)
        if panel is None:
            return None, shown, {}
        return self.frame(shown, text, panel, instance), shown, panel.extras

    def panel(
        self,
        clean: dict[str, Any],
        text: Text,
        instance: str | None,
        actions: Mapping[str, Any],
        sessions: Sessions | None,
        always: bool = True,
    ) -> tuple[Panel | None, dict[str, Any]]:
        """The drawn panel for a normalised state (None: nothing new to draw, see ``drawn``),
        and the state it shows."""
        raise NotImplementedError

    def check_actions(self, names: Mapping[str, Any]) -> None:
        """``StateError`` for an action the figure does not know (none but a running figure's)."""
        known = self.action_names
        for name in names:
            if name not in known:
                raise StateError(ACTION + name, f"unknown action; known actions are {list(known) or 'none'}")

    @property
    def action_names(self) -> tuple[str, ...]:
        return ()

    def share(self, state: dict[str, Any], lang: str, instance: str | None) -> tuple[str | None, str | None]:
        """The root's data-share and data-address (none but a shareable figure's)."""
        return None, None

    def frame(self, state: dict[str, Any], text: Text, panel: Panel, instance: str | None) -> str:
        """Wraps a drawn ``panel`` for the normalised ``state`` in the common frame."""
        title = text.plain("title")
        notes = "".join(el("p", {}, note) for note in panel.notes)
        share, address = self.share(state, text.lang, instance)
        return el(
            "div",
            {
                "class": f"apy-fig apy-fig--{self.name}",
                "id": instance,
                "data-figure": self.name,
                "data-state": to_json(state),
                "data-resource": self.resource(text.lang) if self.resource else None,
                "data-share": share,
                "data-address": address,
                "data-strings": to_json(text.subset()),
                "lang": text.lang,
                "dir": text.direction,
                "role": "group",
                "aria-label": title,
            },
            el("p", {"class": "apy-fig__title"}, text.html("title")),
            el("div", {"class": "apy-fig__body"}, panel.body),
            el("p", {"class": "apy-fig__readout", "aria-live": "polite"}, panel.readout),
            el("div", {"class": "apy-fig__notes"}, notes),
            el("p", {"class": "apy-fig__error", "data-role": "error", "role": "alert", "hidden": True}),
            el("p", {"class": "apy-fig__static", "data-role": "static-hint"}, text.html("common.static_hint")),
        )


@dataclass(frozen=True, kw_only=True)
class Figure(BaseFigure):
    """One interactive figure: declared state, declared strings, and its pure draw function."""

    draw: Draw

    def panel(
        self,
        clean: dict[str, Any],
        text: Text,
        instance: str | None,
        actions: Mapping[str, Any],
        sessions: Sessions | None,
        always: bool = True,
    ) -> tuple[Panel | None, dict[str, Any]]:
        return self.draw(clean, text), clean


@dataclass(frozen=True, kw_only=True)
class RunningFigure[W: Work, K](BaseFigure):
    """A figure that works between calls and opens from a link (figures/README.md, "Running figures"
    and "Addresses"): ``train_live``.

    Its state has ``running`` and ``step``. ``start(state, lang)`` makes the work (a ``Work``)
    for a state at step 0; ``key`` names the state keys the work is made from, ``end`` the key
    that says how far it goes. Each call: a session whose work was started for other ``key``
    values (a recipe control), is at another step (Reset, or a fresh Python after a reload),
    or is past ``end``, is replaced by new work at step 0 (paused when a ``key`` value
    changed, or when the state's step was past 0: that run is gone); while the state says
    running, the work takes pieces for ``budget`` seconds; then ``draw(state, text, session)``
    draws the state with the step reached, at most every ``redraw_every`` seconds while the
    run goes on (``_later``: drawing every step would cost the run a third of its time).
    The figure's own code reads no clock and keeps nothing: the session (work of type ``W``,
    keeping a ``K`` across works) is in the store of sessions its caller passes in
    (``live.Sessions``), and its store's clock is the one the budget, the drawings' pace and
    the run's pace (``Session.seconds_per_step``) are measured by.

    ``shareable`` state keys may be set by the page's address (``#train?positions=none``);
    ``language_defaults(lang)`` gives defaults over the spec's on a page of ``lang``.
    """

    draw: RunningDraw[W, K]
    start: Callable[[dict[str, Any], str], W]
    key: tuple[str, ...]
    end: str
    budget: float = 0.02  # seconds of work per call (bench/figure_latency.py --training)
    redraw_every: float = 0.25  # seconds between drawings while the run goes on (bench/induction_page.py)
    shareable: tuple[str, ...] = ()
    language_defaults: Callable[[str], dict[str, Any]] | None = None
    actions: Actions[W, K] | None = None

    def __post_init__(self) -> None:
        unknown = [k for k in (*self.shareable, *self.key, self.end, "running", "step") if k not in self.spec.fields]
        if unknown:
            raise ValueError(f"figure {self.name!r}: shareable or running keys {unknown} are not in its state")

    def defaults(self, lang: str | None) -> dict[str, Any]:
        return self.language_defaults(lang) if lang is not None and self.language_defaults is not None else {}

    def panel(
        self,
        clean: dict[str, Any],
        text: Text,
        instance: str | None,
        actions: Mapping[str, Any],
        sessions: Sessions | None,
        always: bool = True,
    ) -> tuple[Panel | None, dict[str, Any]]:
        store = sessions if sessions is not None else Sessions()
        slot = (self.name, instance, text.lang)
        asked = tuple(clean[k] for k in self.key)
        end = clean[self.end]
        session: Session[W, K] | None = store.get(slot)
        changed = session is not None and session.asked != asked  # a recipe control: start again, paused
        step = 0 if changed else clean["step"]
        # The state is past step 0 but this Python has no work there (a reload, a fresh worker):
        # the run is gone, and it comes back paused at step 0 rather than starting by itself.
        lost = step != 0 and (session is None or session.work.step != step) and step <= end
        running = bool(clean["running"]) and not changed and not lost
        if session is None or changed or session.work.step != step or step > end:
            session = store.start(slot, asked, self.start(clean, text.lang))
        elif running:
            running = session.advance(end, self.budget)
        else:
            session.still()
        shown = {**clean, "running": running, "step": session.work.step}
        extras: dict[str, Any] = {}
        if self.actions is not None:
            for name, value in actions.items():
                extras.update(self.actions.act(name, value, session, shown, text))
        if running and not always and not actions and self._later(shown, text, session):
            return None, shown
        panel = self._drawing(shown, text, session, fresh=bool(actions))
        stored = self.actions.stored(session) if self.actions is not None else None
        panel.extras.update(extras, **({"stored": stored} if stored is not None else {}))
        return panel, shown

    def _later(self, shown: dict[str, Any], text: Text, session: Session[W, K]) -> bool:
        """Whether a call of a run that goes on may answer "nothing new to draw": the last
        drawing is of this state but for its step and these strings, and it is not due again
        (``redraw_every``), or nothing drawn has changed since (the work's ``mark``)."""
        if session.drawn is None:
            return False
        (drawn, strings, mark), _ = session.drawn
        if strings != text.strings or {**drawn, "step": shown["step"]} != shown:
            return False
        now = getattr(session.work, "mark", None)
        return not session.due(self.redraw_every) or (now is not None and now == mark)

    def _drawing(self, shown: dict[str, Any], text: Text, session: Session[W, K], *, fresh: bool) -> Panel:
        """The session's drawing of ``shown``. A work with a ``mark`` (what changes whenever
        anything its figure draws of it changes) is drawn again only when the mark, the state
        shown or the strings changed, or an action ran: a step takes longer than ``budget``,
        and the drawing of a step is its markup again."""
        mark = getattr(session.work, "mark", None)
        key = (shown, text.strings, mark)
        if mark is not None and not fresh and session.drawn is not None and session.drawn[0] == key:
            last: Panel = session.drawn[1]
        else:
            last = self.draw(shown, text, session)
            session.keep_drawing((key, last))
        return replace(last, extras=dict(last.extras))

    @property
    def action_names(self) -> tuple[str, ...]:
        return self.actions.names if self.actions is not None else ()

    def share(self, state: dict[str, Any], lang: str, instance: str | None) -> tuple[str | None, str | None]:
        if not self.shareable or not instance:
            return None, None
        defaults = self.default_state(lang)  # once: the address is made against them
        return to_json({k: defaults[k] for k in self.shareable}), self._address(state, instance, defaults)

    def address(self, state: Mapping[str, Any], instance: str | None, lang: str | None = None) -> str:
        """The link that opens this figure with ``state``'s shareable values: ``#<instance>``,
        then ``?key=value&...`` for each one that differs from its default (on a page of
        ``lang``; figures/README.md, "Addresses"). The page's host sends those values back as text,
        like a control's."""
        return self._address(state, instance, self.default_state(lang))

    def _address(self, state: Mapping[str, Any], instance: str | None, defaults: Mapping[str, Any]) -> str:
        pairs = [(k, address_value(state[k])) for k in self.shareable if state[k] != defaults[k]]
        return f"#{instance}" + (f"?{urlencode(pairs)}" if pairs else "")


def address_value(value: Any) -> str:
    """A state value as text in an address: ``true``/``false``, ``0.01``, ``none``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)
