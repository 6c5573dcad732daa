"""site_hooks/guards/script_policy.py on pages written here: which scripts get a hash, what
the build refuses, and the site files also allowed inline (the built site's pages:
tests/site/test_script_policy.py)."""

from __future__ import annotations

import base64
import hashlib

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from site_hooks.build import Build
from site_hooks.guards import script_policy

POLICY = "default-src 'self'; script-src 'self' blob:; object-src 'none'"
HEAD = f'<html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="{POLICY}">'


def sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def script_src(page: str) -> list[str]:
    content = page.split('content="', 1)[1].split('"', 1)[0]
    (directive,) = [d.split() for d in content.split("; ") if d.startswith("script-src ")]
    return directive[1:]


def test_each_inline_script_that_runs_is_allowed_by_its_hash_and_data_is_not():
    page = (
        HEAD + "<script>var a = 1;</script>"
        '<script type="application/json" id="x">{"a": 1}</script>'
        '<script type="module">import "./m.js";\r\n</script>'
        '<script src="s.js">ignored</script>'
        '<script type="text/javascript; charset=utf-8">b()</script>'
        '<script type="text/x-template">{{ not run }}</script>'
        "</head><body><!-- <script>commented()</script> --><p>&lt;script&gt;</p><script>var a = 1;</script></body></html>"
    )
    written = script_policy.with_script_hashes(page, "page.md")
    # CR LF is LF once the browser has parsed the page; one hash for a script written twice
    assert script_src(written) == ["'self'", "blob:", sha("var a = 1;"), sha('import "./m.js";\n'), sha("b()")]
    assert written.replace(" ".join(script_src(written)), "'self' blob:") == page  # nothing else changed


def test_the_extra_sources_are_listed_once_after_the_pages_own():
    page = HEAD + "<script>x()</script></head></html>"
    written = script_policy.with_script_hashes(page, "page.md", (sha("frame()"), sha("x()")))
    assert script_src(written) == ["'self'", "blob:", sha("x()"), sha("frame()")]


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ('<button onclick="go()">Go</button>', "onclick"),
        ('<svg><circle onload="go()"/></svg>', "onload"),
        ('<a href=" JavaScript:go()">Go</a>', "javascript:"),
        ('<form action="javascript:go()"></form>', "javascript:"),
    ],
)
def test_what_no_hash_can_allow_stops_the_build(body, named):
    with pytest.raises(PluginError, match=named) as refused:
        script_policy.with_script_hashes(HEAD + "</head><body>" + body + "</body></html>", "docs/en/page.md")
    assert "docs/en/page.md" in str(refused.value)


@pytest.mark.parametrize(
    "page",
    [
        "<html><head><script>x()</script></head></html>",  # no policy
        HEAD + "<meta http-equiv='Content-Security-Policy' content=\"script-src 'none'\"></head></html>",  # two
        "<html><head><script>x()</script>" + HEAD[12:] + "</head></html>",  # a script before it
        HEAD.replace("script-src 'self' blob:; ", "") + "</head></html>",  # no script-src
    ],
)
def test_a_page_without_one_policy_first_stops_the_build(page):
    with pytest.raises(PluginError, match="Content-Security-Policy"):
        script_policy.with_script_hashes(page, "page.md")


def test_site_files_also_allowed_inline_are_hashed_from_the_build_and_missing_ones_skipped(tmp_path, monkeypatch):
    config = MkDocsConfig()
    build = Build()
    monkeypatch.setattr(script_policy, "ALSO_INLINE", ("assets/frame.js", "assets/missing.js"))
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "frame.js").write_text("boot(\u05d0);\n", encoding="utf-8")
    frame = File("assets/frame.js", str(tmp_path), str(tmp_path / "site"), use_directory_urls=True)
    page = HEAD + "<script>x()</script></head></html>"
    script_policy.on_env(None, config, Files([frame]), build)
    assert script_src(script_policy.on_post_template(page, "404.html", config, build))[2:] == [
        sha("x()"),
        sha("boot(\u05d0);\n"),
    ]
    script_policy.on_env(None, config, Files([]), build)
    assert script_src(script_policy.on_post_template(page, "404.html", config, build))[2:] == [sha("x()")]


def test_under_mkdocs_serve_inline_scripts_are_allowed_for_its_live_reload():
    """MkDocs' live reload adds an inline script whose text changes on every request."""
    page = HEAD + "<script>x()</script></head></html>"
    config = MkDocsConfig()
    serving = Build(serving=True)
    assert script_src(script_policy.on_post_template(page, "404.html", config, serving)) == [
        "'self'",
        "blob:",
        "'unsafe-inline'",
    ]
    assert script_src(script_policy.on_post_template(page, "404.html", config, Build())) == [
        "'self'",
        "blob:",
        sha("x()"),
    ]
