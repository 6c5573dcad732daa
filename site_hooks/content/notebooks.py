"""MkDocs hook: make the companion notebooks real pages in every language, self-hosted.

Five fixes for mkdocs-jupyter under mkdocs-static-i18n:

1. static-i18n rebuilds every file as a plain ``File``, dropping mkdocs-jupyter's notebook
   wrapper, and a plain File is a page only if its extension is a Markdown one: notebooks
   were silently published as raw JSON (static-i18n issue #198). Registering ``.ipynb`` as a
   page extension keeps them pages; mkdocs-jupyter still renders them, as it picks pages by
   source path.
2. The notebooks are executed at build time by a Jupyter kernel, a separate process: the
   repository root goes on its PYTHONPATH so it imports this attention_py, and the
   rendering cache is keyed by the package sources so changed code means fresh outputs.
3. mkdocs-jupyter appends a MathJax loader (from a CDN) to every page. It is removed; the
   site's own KaTeX renderer (assets/extras/math.js) typesets notebook math like any other.
4. With ``markdown_cell_processor: mkdocs`` (Markdown cells get attr_list ids and arithmatex
   math like any page), mkdocs-jupyter 0.27 appends ``<style>`` + the Python repr of a list
   of CSS strings, indented, which Markdown shows as a code block at the end of the
   notebook. That stray block is dropped before Markdown sees it.
5. Each notebook page carries about 590 KB of inline JupyterLab CSS, the same on every
   notebook (96 KB gzipped, per page). It is moved to one shared stylesheet,
   ``assets/notebooks/notebook-<hash>.css``, fetched once and cached by the browser.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path
from typing import Any

import mkdocs.utils
from mkdocs.utils import get_relative_url
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority

from site_hooks import ROOT
from site_hooks.assets.products import package_digest

NOTEBOOK_CACHE = ROOT / ".cache" / "mkdocs-jupyter"
_MATHJAX_LOADER = re.compile(r"<script data-mkdocs-jupyter-mathjax=[^>]*>.*?</script>\n?", re.DOTALL)
_INLINE_STYLE = re.compile(r'<style type="text/css">(.*?)</style>', re.DOTALL)
_STRAY_CSS_REPR = re.compile(r"\n[ \t]*<style>\s*\[.*\]\s*</style>\s*\Z", re.DOTALL)


@event_priority(-150)  # after static-i18n (-100) has chosen the language of this build
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    if ".ipynb" not in mkdocs.utils.markdown_extensions:
        mkdocs.utils.markdown_extensions = (*mkdocs.utils.markdown_extensions, ".ipynb")

    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    if str(ROOT) not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, paths)])

    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None:
        # One folder per language too: mkdocs-jupyter evicts every cache entry the current
        # build did not use, and static-i18n builds one language at a time.
        current = NOTEBOOK_CACHE / package_digest()[:16]
        i18n = config.plugins.get("i18n")
        language = getattr(i18n, "current_language", None) or "default"
        jupyter.config["cache_dir"] = str(current / language)
        for stale in NOTEBOOK_CACHE.glob("*"):
            if stale != current:
                shutil.rmtree(stale, ignore_errors=True) if stale.is_dir() else stale.unlink()
    return config


@event_priority(50)  # after mkdocs-jupyter (100) has put the notebook's HTML in place
def on_page_markdown(markdown: str, page: Any, config: MkDocsConfig, files: Any) -> str:
    if page.file.src_uri.endswith(".ipynb"):
        return _STRAY_CSS_REPR.sub("\n", markdown)
    return markdown


def _share_notebook_css(output: str, page: Any, config: MkDocsConfig) -> str:
    blocks = _INLINE_STYLE.findall(output)
    if not blocks:
        return output
    css = "\n".join(blocks).encode("utf-8")
    dest_uri = f"assets/notebooks/notebook-{hashlib.sha256(css).hexdigest()[:12]}.css"
    target = Path(config.site_dir) / dest_uri
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(css)
    link = f'<link rel="stylesheet" href="{get_relative_url(dest_uri, page.url)}">'
    first = True

    def replace(match: re.Match[str]) -> str:
        nonlocal first
        keep, first = first, False
        return link if keep else ""

    return _INLINE_STYLE.sub(replace, output)


@event_priority(-50)  # after mkdocs-jupyter's own on_post_page, which appends the loader
def on_post_page(output: str, page: Any, config: MkDocsConfig) -> str:
    output = _MATHJAX_LOADER.sub("", output)
    if page.file.src_uri.endswith(".ipynb"):
        output = _share_notebook_css(output, page, config)
    return output
