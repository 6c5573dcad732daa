"""The top-level folders import each other one way only, so no import goes round in a circle:

    attention_py  <-  site_hooks  <-  devtools, tests, bench
    attention_py  <-  docs/widgets (the page's Python: session_runtime.py and its loaders)

attention_py (the package) imports only itself; the Python files of docs/widgets/, which
run in the page's worker, import only attention_py; site_hooks (the build) imports attention_py
and itself, and runs no file of devtools/; devtools (command-line tools), tests and bench may
import both. Inside site_hooks no module imports, even from inside a function, one that
imports it back.

Inside the figures (attention_py/figures/) the folders go one way too: the kit (``kit/``, the
framework and the views two articles share) imports no article's folder, and an article's
folder (``what_matters/``, ``learning/``, ...) imports the kit and the package, never another
article's folder; only the registry (``figures/__init__.py``) imports them all.

Every ``import`` of a file counts, wherever it stands (a function's lazy import too), read
with ``ast`` without importing anything.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRST_PARTY = ("attention_py", "site_hooks", "devtools", "tests", "bench")
MAY_IMPORT = {
    "attention_py": {"attention_py"},
    "site_hooks": {"attention_py", "site_hooks"},
    "docs/widgets": {"attention_py"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources(folder: str) -> list[Path]:
    return sorted(path for path in (ROOT / folder).rglob("*.py") if "__pycache__" not in path.parts)


def imports(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line, module, names imported from it) for every import in the file; relative imports resolved."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            yield node.lineno, module, [alias.name for alias in node.names]


def where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT).as_posix()}:{line}"


@pytest.mark.parametrize("folder", sorted(MAY_IMPORT))
def test_a_folder_imports_only_the_folders_below_it(folder: str) -> None:
    allowed = MAY_IMPORT[folder]
    wrong = [
        f"{where(path, line)} imports {module}"
        for path in sources(folder)
        for line, module, _ in imports(path)
        if module.split(".")[0] in FIRST_PARTY and module.split(".")[0] not in allowed
    ]
    assert not wrong, (
        f"{folder}/ may import only {', '.join(sorted(allowed))}; move what it needs down into it "
        "(devtools/ may import the build, never the other way round):\n  " + "\n  ".join(wrong)
    )


def test_the_build_runs_no_file_of_the_tools_tests_or_benchmarks() -> None:
    """A path such as ``ROOT / "devtools" / "x.mjs"`` is a dependency as much as an import."""
    wrong = [
        f"{where(path, node.lineno)} names {node.value!r}"
        for path in sources("site_hooks")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.split("/")[0] in {"devtools", "tests", "bench"}
    ]
    assert not wrong, "site_hooks/ uses a file outside the build:\n  " + "\n  ".join(wrong)


def site_hooks_graph() -> dict[str, dict[str, str]]:
    """module -> {module it imports: where}, between the modules of site_hooks/."""
    paths = {module_name(path): path for path in sources("site_hooks")}
    graph: dict[str, dict[str, str]] = {name: {} for name in paths}
    for name, path in paths.items():
        for line, module, names in imports(path):
            targets = [f"{module}.{n}" for n in names if f"{module}.{n}" in paths] or [module]
            for target in targets:
                if target in paths and target != name:  # training.py imports itself for pickle: no circle
                    graph[name].setdefault(target, where(path, line))
    return graph


def circles(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    """Circles (the modules along each, the first repeated at the end) a depth-first search meets:
    at least one whenever the graph has any."""
    found, done = [], set()
    for start in sorted(graph):
        stack, on_path = [(start, iter(sorted(graph[start])))], [start]
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                on_path.pop()
                done.add(node)
            elif child in on_path:
                circle = [*on_path[on_path.index(child) :], child]
                if not any(set(circle) == set(other) for other in found):
                    found.append(circle)
            elif child not in done:
                stack.append((child, iter(sorted(graph[child]))))
                on_path.append(child)
    return found


def test_no_module_of_the_build_imports_itself_round_a_circle() -> None:
    graph = site_hooks_graph()
    assert "site_hooks.i18n.languages" in graph["site_hooks.content.figures"]  # the graph sees imports
    found = circles(graph)
    described = [" -> ".join(f"{a} ({graph[a][b]})" for a, b in itertools.pairwise(c)) + f" -> {c[-1]}" for c in found]
    assert not found, "imports in a circle inside site_hooks/:\n  " + "\n  ".join(described)


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b": "a.py:1"}, "b": {"c": "b.py:1"}, "c": {"a": "c.py:9"}, "d": {"a": "d.py:1"}}
    assert circles(graph) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b": "a.py:1"}, "b": {}}) == []


# Inside the package, three floors: the mathematics (the modules at its top), the learning
# package on it, and the figures (with ``resources``, what they read) on both. A floor imports
# only itself and the floors below, so the mathematics stands alone and a model never
# depends on how it is drawn.
PACKAGE_FLOORS = {
    "attention_py": {"attention_py"},  # the mathematics: attention, softmax, modules, ...
    "attention_py.learning": {"attention_py", "attention_py.learning"},
    "attention_py.resources": {"attention_py", "attention_py.learning", "attention_py.resources"},
    "attention_py.figures": {"attention_py", "attention_py.learning", "attention_py.resources", "attention_py.figures"},
}


def package_floor(module: str) -> str:
    """The floor of a module of attention_py: its sub-package, or the mathematics."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 and ".".join(parts[:2]) in PACKAGE_FLOORS else "attention_py"


def test_the_package_floors_import_downwards_only() -> None:
    wrong = []
    for path in sources("attention_py"):
        floor = package_floor(module_name(path))
        for line, module, names in imports(path):
            if module.split(".")[0] != "attention_py":
                continue
            targets = [f"{module}.{n}" for n in names] if module == "attention_py" else [module]
            for target in targets:
                if module_name(path) != "attention_py" and package_floor(target) not in PACKAGE_FLOORS[floor]:
                    wrong.append(f"{where(path, line)} ({floor}) imports {target}")
    assert not wrong, "an import goes up a floor of attention_py:\n  " + "\n  ".join(wrong)


def test_the_floor_check_sees_an_upward_import() -> None:
    assert package_floor("attention_py.modules") == "attention_py"
    assert package_floor("attention_py.learning.layer") == "attention_py.learning"
    assert package_floor("attention_py.figures.train_live") == "attention_py.figures"
    assert package_floor("attention_py.learning") not in PACKAGE_FLOORS["attention_py"]


FIGURES = ROOT / "attention_py" / "figures"


def figure_folders() -> list[str]:
    """The figures' folders: ``kit`` and one per article."""
    return sorted(path.parent.name for path in FIGURES.glob("*/__init__.py"))


def test_the_figures_kit_imports_no_article_and_no_article_another() -> None:
    folders = figure_folders()
    assert "kit" in folders, folders
    assert len(folders) > 2, folders
    assert not [path for path in FIGURES.glob("*.py") if path.name != "__init__.py"], "a figure belongs in a folder"
    wrong = []
    for folder in folders:
        for path in sources(f"attention_py/figures/{folder}"):
            for line, module, names in imports(path):
                parts = module.split(".")
                if parts[:2] != ["attention_py", "figures"]:
                    continue
                # ``from attention_py.figures import x`` names a folder through its names
                targets = [parts[2]] if len(parts) > 2 else names
                for target in targets:
                    if target != folder and (target != "kit" or folder == "kit"):
                        wrong.append(f"{where(path, line)} imports attention_py.figures.{target}")
    assert not wrong, (
        "attention_py/figures/: the kit imports no article, an article imports only the kit "
        "(move what two articles share into kit/):\n  " + "\n  ".join(wrong)
    )
