"""The site's one hook file (site_hooks/hooks.py): mkdocs.yml names it alone, every module
that handles a MkDocs event is one of its stages, the stages run in an order that keeps every
``RUNS_AFTER``, and each build (``mkdocs serve`` runs many in one process) starts with state
of its own, which static-i18n's builds of the other languages share."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from mkdocs.plugins import EVENTS, PluginCollection, event_priority
from mkdocs.utils.yaml import yaml_load

from site_hooks import hooks
from site_hooks.assets import offline
from site_hooks.build import Build
from site_hooks.content import figure_pages, figures, induction, live_cells
from site_hooks.guards import script_policy
from site_hooks.i18n import not_found

ROOT = Path(__file__).resolve().parents[2]


def name(stage: Any) -> str:
    return getattr(stage, "__name__", type(stage).__name__).rpartition(".")[2]


def broken() -> list[str]:
    """Each ``RUNS_AFTER`` that the stages' priorities and the order of STAGES break."""
    problems = []
    for rule in hooks.RUNS_AFTER:
        order = [stage for stage, _ in hooks.run_order(rule.event)]
        if rule.stage not in order:
            problems.append(f"{name(rule.stage)} does not handle {rule.event}: the rule is stale")
            continue
        late = [name(s) for s in rule.stages if s in order and order.index(s) > order.index(rule.stage)]
        if late:
            problems.append(f"on_{rule.event}: {name(rule.stage)} runs before {', '.join(late)} ({rule.why})")
    return problems


def test_mkdocs_yml_names_the_one_hook_file():
    config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["hooks"] == ["site_hooks/hooks.py"]


def test_every_module_that_handles_an_event_is_a_stage():
    handling = {
        path.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
        for path in (ROOT / "site_hooks").rglob("*.py")
        if re.search(rf"^def on_(?:{'|'.join(EVENTS)})\(", path.read_text(encoding="utf-8"), re.MULTILINE)
    }
    assert handling == {stage.__name__ for stage in hooks.STAGES if stage is not hooks.BUILDS}


def test_the_stages_keep_every_order_the_site_depends_on():
    assert broken() == []


@pytest.mark.parametrize(
    ("handler", "priority", "says"),
    [
        (offline.on_post_build, -100, "on_post_build: offline runs before search"),
        (script_policy.on_post_page, 0, "on_post_page: script_policy runs before notebooks, self_hosted"),
        (script_policy.on_env, 1000, None),  # no rule: the policy's hashes of files need only on_files
    ],
)
def test_a_stage_moved_against_a_rule_is_caught(monkeypatch, handler, priority, says):
    monkeypatch.setattr(handler, "mkdocs_priority", priority)
    problems = broken()
    assert any(problem.startswith(says) for problem in problems) if says else problems == [], problems


def test_mkdocs_runs_the_stages_handlers_by_priority_then_in_the_order_of_stages():
    """Registered as MkDocs registers a hook file; mkdocs.yml's list of files did the same."""
    collection = PluginCollection()
    collection["site_hooks/hooks.py"] = hooks  # type: ignore[assignment]
    for event in EVENTS:
        registered = collection.events[event]
        assert [h for run in registered for h in run.handlers] == [h for _, h in hooks.run_order(event)], event
        priorities = [hooks.priority_of(run) for run in registered]
        assert priorities == sorted(set(priorities), reverse=True), event  # one handler per priority


def test_each_handler_gets_the_item_from_the_one_before_and_the_build_where_it_asks(monkeypatch):
    seen: list[tuple[str, Any]] = []

    def first(output: str, page: str) -> str:
        seen.append(("first", page))
        return output + "1"

    def second(output: str, page: str, build: Build) -> None:  # None: the page is left as it is
        seen.append(("second", build))

    @event_priority(-10)
    def third(output: str, **kwargs: Any) -> str:
        return output + "3"

    stages = (SimpleNamespace(on_post_page=third), SimpleNamespace(on_post_page=first, on_env=second))
    stages += (SimpleNamespace(on_post_page=second),)
    combined = hooks.handler_of("post_page", stages)
    assert combined is not None
    build = Build()
    monkeypatch.setattr(hooks.BUILDS, "current", build)
    output = "page"
    for run in combined.methods:  # as MkDocs runs them
        output = run(output, page="p")
    assert output == "page13"
    assert seen == [("first", "p"), ("second", build)]


class Config(dict[str, Any]):
    """What the hooks read of MkDocs' configuration, and the i18n plugin's language."""

    def __init__(self) -> None:
        fences = [
            {"name": "figure", "validator": figures.validate, "format": figures.format},
            {"name": "python-live", "validator": live_cells.validate, "format": live_cells.format},
        ]
        super().__init__(mdx_configs={"pymdownx.superfences": {"custom_fences": fences}})
        self.plugins = {"i18n": SimpleNamespace(current_language=None)}

    def fence(self, index: int, key: str) -> Any:
        return self["mdx_configs"]["pymdownx.superfences"]["custom_fences"][index][key]


def test_each_build_starts_afresh_and_its_languages_share_it():
    builds = hooks.Builds()  # a process's
    builds.on_startup(command="serve")
    config = Config()
    builds.on_config(config)
    first = builds.current
    assert first is not None
    assert first.serving
    first.drawn["index.html"] = (1, 2)
    first.not_found_page = "<html>en</html>"
    config.plugins["i18n"].current_language = "en"  # static-i18n then builds he, fa in the same build
    builds.on_config(config)
    assert builds.current is first
    builds.on_config(Config())  # `mkdocs serve` rebuilds: a new configuration, a new build
    second = builds.current
    assert second is not first
    assert second is not None
    assert second.serving
    assert (second.drawn, second.not_found_page, second.typeset, second.english) == ({}, None, {}, {})


def bound(function: Any) -> tuple[Any, dict[str, Any]]:
    return (function.func, function.keywords) if isinstance(function, functools.partial) else (function, {})


def test_the_fences_are_handed_the_build_in_progress():
    builds = hooks.Builds()
    config = Config()
    builds.on_config(config)
    first = builds.current
    assert bound(config.fence(0, "validator")) == (figures.validate, {"build": first})
    assert bound(config.fence(0, "format")) == (figures.format, {"build": first})
    assert bound(config.fence(1, "validator")) == (live_cells.validate, {})  # it names no build
    assert bound(config.fence(1, "format")) == (live_cells.format, {"build": first})
    builds.on_config(config)  # the same configuration built again: bound to the new build only
    assert builds.current is not first
    assert bound(config.fence(1, "format")) == (live_cells.format, {"build": builds.current})


def test_what_the_fences_drew_on_a_page_reaches_its_template():
    class File:  # a key of a page's links_to_anchors, as MkDocs' File is
        locale, src_uri, dest_uri = "en", "en/index.md", "index.html"

    page = SimpleNamespace(file=File(), links_to_anchors=None, present_anchor_ids=None)
    build = Build()
    figure_pages.on_page_markdown("", page, SimpleNamespace(nav=None), build)
    assert (build.page.lang, build.page.src, build.page.cells) == ("en", "en/index.md", 0)
    build.page.cells += 2  # as two python-live fences count
    figure_pages.on_page_content("", page, build)
    build.start_page("en", "en/next.md")  # MkDocs converts every page before any template
    assert build.drawn == {"index.html": (2, 0)}


def test_the_default_languages_404_page_is_every_languages_and_kept_per_build():
    english = SimpleNamespace(theme={"language": "en"}, plugins={})
    hebrew = SimpleNamespace(theme={"language": "he"}, plugins={})
    build = Build()
    assert not_found.on_post_template("<p>en</p>", "404.html", english, build) == "<p>en</p>"
    assert not_found.on_post_template("<p>he</p>", "404.html", hebrew, build) == "<p>en</p>"
    assert not_found.on_post_template("<p>he</p>", "index.html", hebrew, build) == "<p>he</p>"
    assert not_found.on_post_template("<p>he</p>", "404.html", hebrew, Build()) == "<p>he</p>"  # a new build


def test_each_build_reads_again_what_the_figures_read_from_files(tmp_path, monkeypatch):
    """The induction records are trained again when their code changes (a new file), which
    `mkdocs serve` watches: the next build must not draw the figures from the old one."""
    record = tmp_path / "run.json"
    monkeypatch.setattr(induction, "record_file", lambda name: record)
    induction.record.cache_clear()
    record.write_text('{"steps": 1}', encoding="utf-8")
    assert induction.record("run") == {"steps": 1}
    record.write_text('{"steps": 2}', encoding="utf-8")
    assert induction.record("run") == {"steps": 1}  # within a build: read once
    figure_pages.on_config(None)  # the next build starts
    assert induction.record("run") == {"steps": 2}
    induction.record.cache_clear()
