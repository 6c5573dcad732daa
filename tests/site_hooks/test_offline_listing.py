"""The list of the build's files that sw.js carries (site_hooks/assets/offline.py): what is
listed and what never is, each file's group, and a build id that follows every byte."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from site_hooks.assets.offline import group_of, site_files

HOMES = {"en": "", "he": "he/", "fa": "fa/"}


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    write(
        tmp_path,
        {
            "index.html": "<title>Home &amp; away</title>",
            "offline/index.html": "<title>Offline</title>",
            "he/index.html": "<title>בית - attention_py</title>",
            "he/offline/index.html": "<title>אין חיבור</title>",
            "fa/offline/index.html": "<title>بدون اتصال</title>",
            "he/search/search_index.json": "{}",
            "assets/extras/site.css": "body {}",
            "assets/pyodide/pyodide.asm.wasm": "wasm",
            "assets/wheels/attention_py-0.1.0-py3-none-any.whl": "wheel",
            "assets/widgets/python-worker.js": "worker",
            "assets/widgets/files-worker.js": "files",
            "assets/javascripts/lunr/min/lunr.he.min.js": "he",
            "assets/javascripts/lunr/min/lunr.de.min.js": "de",
            "assets/javascripts/lunr/min/lunr.multi.min.js": "multi",
            "assets/javascripts/lunr/min/lunr.normalised.min.js": "Persian's (site_hooks/i18n/search.py)",
            "assets/javascripts/lunr/tinyseg.js": "ja",
            "assets/snapshot/python-0123.gz": "image",
            "assets/javascripts/bundle.min.js.map": "map",
            "notebooks/a/a.ipynb": "{}",
            "404.html": "<title>404</title>",
            "sitemap.xml": "<urlset/>",
            "sw.js": "old worker",
        },
    )
    return tmp_path


def test_each_file_has_its_revision_size_and_group(site):
    files = site_files(site, HOMES)["files"]
    assert files["index.html"] == [hashlib.sha256(b"<title>Home &amp; away</title>").hexdigest()[:16], 30, "en"]
    assert files["he/search/search_index.json"][2] == "he"
    assert files["assets/extras/site.css"][2] == "shared"
    for python in ("assets/pyodide/pyodide.asm.wasm", "assets/wheels/attention_py-0.1.0-py3-none-any.whl"):
        assert files[python][2] == "python"
    assert files["assets/widgets/python-worker.js"][2] == "python"
    assert files["assets/widgets/files-worker.js"][2] == "python"


def test_what_is_never_kept_is_not_listed(site):
    files = site_files(site, HOMES)["files"]
    for name in (
        "sw.js",
        "assets/snapshot/python-0123.gz",  # the worker keeps the image inflated itself
        "assets/javascripts/bundle.min.js.map",
        "notebooks/a/a.ipynb",
        "404.html",
        "sitemap.xml",
        "assets/javascripts/lunr/min/lunr.de.min.js",  # German is not built
        "assets/javascripts/lunr/tinyseg.js",  # nor Japanese
    ):
        assert name not in files, name
    assert "assets/javascripts/lunr/min/lunr.he.min.js" in files
    assert "assets/javascripts/lunr/min/lunr.multi.min.js" in files
    assert "assets/javascripts/lunr/min/lunr.normalised.min.js" in files


def test_pages_have_titles_and_every_language_its_offline_page(site):
    listing = site_files(site, HOMES, "attention_py")
    assert listing["titles"]["index.html"] == "Home & away"  # the site's name is dropped
    assert listing["titles"]["he/index.html"] == "בית"
    assert listing["offline"] == {
        "en": "offline/index.html",
        "he": "he/offline/index.html",
        "fa": "fa/offline/index.html",
    }
    assert listing["homes"] == HOMES


def test_the_build_id_follows_every_byte(site):
    first = site_files(site, HOMES)["build"]
    assert site_files(site, HOMES)["build"] == first
    (site / "assets" / "extras" / "site.css").write_text("body { }", encoding="utf-8")
    assert site_files(site, HOMES)["build"] != first


def test_a_language_without_its_offline_page_stops_the_build(site):
    (site / "fa" / "offline" / "index.html").unlink()
    with pytest.raises(PluginError, match=r"fa/offline/index.html was not built: docs/fa/offline.md is missing"):
        site_files(site, HOMES)


def test_groups_by_home():
    assert group_of("he/learning/index.html", HOMES) == "he"
    assert group_of("learning/index.html", HOMES) == "en"
    assert group_of("search/search_index.json", HOMES) == "en"
    assert group_of("assets/fonts/fonts.css", HOMES) == "shared"


def test_a_cjk_face_one_language_uses_is_kept_with_that_language():
    owned = {"assets/fonts/noto-sans-sc/": "zh"}
    homes = {**HOMES, "zh": "zh/"}
    assert group_of("assets/fonts/noto-sans-sc/noto-sans-sc-57-400-normal.woff2", homes, owned) == "zh"
    assert group_of("assets/fonts/noto-sans-sc/noto-sans-sc.css", homes, owned) == "zh"
    assert group_of("assets/fonts/noto-sans-latin-400-normal.woff2", homes, owned) == "shared"


def test_each_listed_extension_has_the_type_a_kept_copy_is_served_with(site):
    types = site_files(site, HOMES)["types"]
    assert types[".html"] == "text/html; charset=utf-8"
    assert types[".css"] == "text/css; charset=utf-8"
    assert types[".js"] == "text/javascript; charset=utf-8"
    assert types[".wasm"] == "application/wasm"
    assert types[".whl"] == "application/zip"
    assert ".map" not in types, "only what is listed"
    assert ".gz" not in types


def test_a_file_of_a_kind_without_a_type_stops_the_build(site):
    (site / "assets" / "extras" / "data.bin").write_bytes(b"\0")
    with pytest.raises(PluginError, match=r"assets/extras/data.bin: no Content-Type for \.bin"):
        site_files(site, HOMES)


def test_the_repair_page_speaks_every_built_language_in_its_direction(site):
    from types import SimpleNamespace

    from site_hooks.assets.offline import REPAIR_WORDS, repair_words
    from tests.languages import LANGUAGES

    built = [SimpleNamespace(locale=lang.code, direction=lang.direction) for lang in LANGUAGES]
    words = repair_words(built)  # type: ignore[arg-type]
    for lang in LANGUAGES:
        assert words[lang.code] == {"dir": lang.direction, **{key: lang.page_string(key) for key in REPAIR_WORDS}}
    assert site_files(site, HOMES, words=words)["words"] == words
