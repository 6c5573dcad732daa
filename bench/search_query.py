"""How long Material's search worker takes to answer a long query, under Node.js.

    ./run bench search_query [--index PATH] [--repeat N]

Material's own worker (lunr inside) with the site's segmented Chinese plugin (the one a zh page
loads), set up with a Chinese index: ``--index`` a built site's ``zh/search/search_index.json``
(tests/e2e/test_new_language.py builds one), by default the pages of
tests/site_hooks/test_search_segmentation.py segmented as the build does. For each query length, the
median time from the query's message to the worker's answer (tests/site_hooks/search_worker.mjs --timed),
for three kinds of query:

- ``run``: one run of Han characters, no punctuation (what issue 43 typed: 5,000 of them took
  104.5 s), answered by the plugin as published (its first QUERY_LIMIT characters read);
- ``sentences``: Chinese sentences, the same plugin;
- ``unbounded``: the same sentences with the plugin reading the whole query: the plugin's own
  work and lunr's (punctuation ends Material's Han runs, whose cut costs the square of a run's
  length and more, so this shows what grows with the query's length, not one run's).

It prints the load average beside the numbers: the machine must be quiet for them to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
from pathlib import Path

LENGTHS = (10, 100, 500, 5_000, 40_000)
SENTENCE = "反向传播用链式法则逐层求梯度，模型用注意力机制决定看哪里。"


def _text(unit: str, length: int) -> str:
    return (unit * (length // len(unit) + 1))[:length]


def _answers(worker: Path, helper: Path, plugin: Path, index: Path, queries: list[str]) -> list[dict]:
    result = subprocess.run(
        ["node", str(helper), "worker", str(worker), str(plugin), str(index), "--timed"],
        input=json.dumps(queries),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench search_query")
    parser.add_argument("--index", type=Path, help="a built zh/search/search_index.json")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    from site_hooks.i18n import search, search_text
    from tests.site_hooks.test_search_segmentation import MERGED, zh_docs
    from tests.site_hooks.test_search_text import HELPER, material_worker

    limit = search_text.QUERY_LIMIT
    run = re.sub(r"\W", "", SENTENCE)
    with tempfile.TemporaryDirectory() as folder:
        index = Path(folder) / "search_index.json"
        if args.index:
            index.write_text(args.index.read_text(encoding="utf-8"), encoding="utf-8")
        else:
            index.write_text(search.language_index(MERGED, zh_docs(), None, "zh"), encoding="utf-8")
        plugins = {}
        for name, bounded in (("bounded", True), ("unbounded", False)):
            plugin = Path(folder) / name / Path(search.plugin_uri(None, "zh")).name
            plugin.parent.mkdir()
            text = search_text.javascript(None, "zh")
            if not bounded:
                text = text.replace(f'"queryLimit":{limit}', '"queryLimit":1e15', 1)
            plugin.write_text(text, encoding="utf-8")
            plugins[name] = plugin
        kinds = {
            "run": ("bounded", run),
            "sentences": ("bounded", SENTENCE),
            "unbounded": ("unbounded", SENTENCE),
        }
        print(f"load average {os.getloadavg()[0]:.2f}; QUERY_LIMIT {limit}; index {args.index or 'the test pages'}")
        print(f"{'query':10} " + " ".join(f"{n:>10,}" for n in LENGTHS) + "   (median ms, message to answer)")
        for kind, (plugin, unit) in kinds.items():
            queries = [_text(unit, n) for n in LENGTHS for _ in range(args.repeat)]
            answers = _answers(material_worker(), HELPER, plugins[plugin], index, queries)
            medians = [
                statistics.median(a["ms"] for a in answers[i * args.repeat : (i + 1) * args.repeat])
                for i in range(len(LENGTHS))
            ]
            print(f"{kind:10} " + " ".join(f"{ms:>10.1f}" for ms in medians))
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0
