"""MkDocs hook: train the induction article's model at build time, and publish it.

The build trains the copy task once (``attention_py.learning.induction_run``: two layers,
and the one-layer control with the same budget, side by side, one process each) and
publishes the two records as ``assets/induction/run.json`` and ``assets/induction/control.json``
(the figures' resources ``induction/run`` and ``induction/control``). The tokens are labels, so one run serves every language:
each page shows them in its own alphabet (the figure strings' ``induction.alphabet``).

Cached like the puzzle models (site_hooks/assets/products.py), keyed by the learning code
and ``RUN``; ``record(name)`` gives the same dict to build-time code (the figures are
prerendered from it, the tests read it).
"""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files

from site_hooks import ROOT
from site_hooks.assets.products import cached_product, digest

log = get_plugin_logger("induction")

RECORDS = {"run": 2, "control": 1}  # each published record (assets/induction/<name>.json) and its layers
PUBLISHED = (*RECORDS, "experiments")  # and the histories of the article's other recipes (induction_run.EXPERIMENTS)
CODE = (
    *(
        ROOT / "attention_py" / name
        for name in ("learning", "attention.py", "linalg.py", "softmax.py", "rng.py", "pieces.py")
    ),
    ROOT / "site_hooks" / "content" / "induction.py",
)


def _key() -> str:
    from attention_py.learning.induction_run import RUN

    return hashlib.sha256((digest(CODE) + json.dumps(RUN, sort_keys=True)).encode()).hexdigest()


def _record(layers: int) -> dict[str, Any]:
    from attention_py.learning.induction_run import induction_record

    return induction_record(layers=layers)


def _experiments() -> dict[str, Any]:
    from attention_py.learning.induction_run import experiment_histories

    return experiment_histories()


def _train(folder: Path) -> None:
    with ProcessPoolExecutor(max_workers=len(RECORDS)) as pool:
        # MkDocs loads this hook from its path; the worker processes get the importable module's function
        import site_hooks.content.induction as importable

        experiments = pool.submit(importable._experiments)
        records = dict(zip(RECORDS, pool.map(importable._record, RECORDS.values())))
        records["experiments"] = experiments.result()
    two, one = records["run"], records["control"]
    log.info(
        f"trained the induction model: formed at step {two['formed_at']}, "
        f"{two['final']['copied_accuracy']:.1%} of the copied tokens; one layer: {one['final']['copied_accuracy']:.1%}"
    )
    for name, data in records.items():
        (folder / f"{name}.json").write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")


def record_file(name: str) -> Path:
    """The cached record ``name`` (one of ``PUBLISHED``), trained now if absent."""
    return cached_product("induction", _key(), _train) / f"{name}.json"


@cache
def record(name: str) -> dict[str, Any]:
    """A published record (do not change it: it is shared by every caller)."""
    return json.loads(record_file(name).read_text(encoding="utf-8"))


@event_priority(-200)  # after static-i18n (-100), like training.py
def on_files(files: Files, config: MkDocsConfig) -> Files:
    for name in PUBLISHED:
        dest_uri = f"assets/induction/{name}.json"
        existing = files.get_file_from_path(dest_uri)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, dest_uri, abs_src_path=str(record_file(name))))
    return files
