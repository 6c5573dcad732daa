"""Every built page's Content-Security-Policy runs the page's own inline scripts by their
hashes, and nothing else inline: no 'unsafe-inline', no 'unsafe-eval' in script-src
(site_hooks/guards/script_policy.py writes the hashes; docs/overrides/main.html the policy).

The hashes are computed here again from the written page, with BeautifulSoup rather than the
hook's parser, and compared both ways: a script without its hash would not run, and a hash
without its script would let a script that is no longer in the page (or an injected copy
of it) run."""

from __future__ import annotations

import base64
import hashlib
import re

from bs4 import BeautifulSoup

from site_hooks.guards.script_policy import ALSO_INLINE

RUNS = {None, "", "module", "text/javascript"}  # the script types the site's pages use that run
DATA = {"application/json"}  # and those that are data, which the policy does not govern


def sha256_source(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def script_src(soup: BeautifulSoup) -> list[str]:
    metas = soup.find_all("meta", attrs={"http-equiv": "Content-Security-Policy"})
    assert len(metas) == 1, len(metas)
    directives = [d.split() for d in metas[0]["content"].split(";") if d.strip()]
    (sources,) = [d[1:] for d in directives if d[0] == "script-src"]
    return sources


def test_every_page_runs_its_inline_scripts_by_hash_and_nothing_else_inline(site_dir):
    also = {
        sha256_source((site_dir / path).read_text(encoding="utf-8"))
        for path in ALSO_INLINE
        if (site_dir / path).is_file()
    }
    kinds = {"pages": 0, "notebooks": 0, "with Python": 0, "404": 0}
    for html in sorted(site_dir.rglob("*.html")):
        where = html.relative_to(site_dir)
        soup = BeautifulSoup(html.read_text(encoding="utf-8"), "html.parser")
        sources = script_src(soup)
        assert {"'self'", "'wasm-unsafe-eval'", "blob:"} <= set(sources), (where, sources)
        assert not {"'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'strict-dynamic'"} & set(sources), where
        assert not [s for s in sources if s.startswith("'nonce-")], where
        inline = []
        for script in soup.find_all("script"):
            kind = script.get("type")
            assert kind in RUNS | DATA, (where, kind)  # a new type: decide which it is
            if kind in RUNS and not script.has_attr("src"):
                inline.append(script.string or "")
        listed = {s for s in sources if s.startswith("'sha256-")}
        assert listed == {sha256_source(text) for text in inline} | also, where
        handlers = [
            (tag.name, name) for tag in soup.find_all(True) for name in tag.attrs if re.fullmatch(r"on\w+", name)
        ]
        assert not handlers, (where, handlers)
        assert not soup.find_all(href=re.compile(r"^\s*javascript:", re.I)), where
        kinds["pages"] += 1
        kinds["notebooks"] += "/notebooks/" in f"/{where.as_posix()}"
        kinds["with Python"] += soup.find("script", id="apy-boot-config") is not None
        kinds["404"] += where.as_posix() == "404.html"
    assert all(kinds.values()), kinds  # the check met every kind of page
    assert kinds["pages"] >= 40, kinds


def test_the_policy_comes_before_every_script(site_dir):
    """A <meta> policy governs only what comes after it."""
    for html in sorted(site_dir.rglob("*.html")):
        text = html.read_text(encoding="utf-8")
        policy = text.find('<meta http-equiv="Content-Security-Policy"')
        assert 0 < policy < text.find("<script"), html.relative_to(site_dir)
