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
   mkdocs-jupyter keys each entry by the notebook's absolute path too, so a ``.cache``
   copied into another clone or worktree missed every entry and the build ran every
   notebook again; ``cache_key`` keys it by the path inside the repository instead.
3. mkdocs-jupyter appends a MathJax loader (from a CDN) to every page. It is removed; the
   build typesets notebook math like any other (site_hooks/content/formulas.py).
4. With ``markdown_cell_processor: mkdocs`` (Markdown cells get attr_list ids and arithmatex
   math like any page), mkdocs-jupyter 0.27 appends ``<style>`` + the Python repr of a list
   of CSS strings, indented, which Markdown shows as a code block at the end of the
   notebook. That stray block is dropped before Markdown sees it.
5. Each notebook page carries about 590 KB of inline JupyterLab CSS, the same on every
   notebook (96 KB gzipped, per page). It is moved to one shared stylesheet,
   ``assets/notebooks/notebook-<hash>.css``, fetched once and cached by the browser.

And one addition: a reader can take each notebook away. Its source is published beside its
page (``notebooks/what-matters/what-matters.ipynb``, per language), and under the title the
page offers it and the attention_py wheel for download, with the one ``pip install`` that
makes it run in any Jupyter. The strings are the language's ``extra`` in mkdocs.yml; the wheel's
name is read from the ``assets/wheels/manifest.json`` this build publishes, so the link
cannot go stale; tests/site/test_notebook_downloads.py downloads each notebook and runs it
against that wheel alone. (mkdocs-jupyter's own ``include_source`` copies the file after the
page is written, outside MkDocs' file list, and hands the theme ``page.nb_url``, built from
``page.abs_url``: a root-absolute address that breaks when the site is served under a
sub-path; the button itself would still be ours to write.)
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import posixpath
import re
import shutil
from pathlib import Path
from typing import Any

import mkdocs.utils
import mkdocs_jupyter.plugin
from markdown import markdown as render_markdown
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

from site_hooks import ROOT
from site_hooks.assets.products import package_digest

NOTEBOOK_CACHE = ROOT / ".cache" / "mkdocs-jupyter"
_MATHJAX_LOADER = re.compile(r"<script data-mkdocs-jupyter-mathjax=[^>]*>.*?</script>\n?", re.DOTALL)
_INLINE_STYLE = re.compile(r'<style type="text/css">(.*?)</style>', re.DOTALL)
_STRAY_CSS_REPR = re.compile(r"\n[ \t]*<style>\s*\[.*\]\s*</style>\s*\Z", re.DOTALL)
_FIRST_H1_END = re.compile(r"</h1>")
WHEEL_MANIFEST = "assets/wheels/manifest.json"  # written by site_hooks/assets/publish.py
DOWNLOAD_STRINGS = ("notebook_download", "notebook_wheel", "notebook_run")  # mkdocs.yml `extra`
# Material's own icons (material/templates/.icons/material/download.svg, package-down.svg)
_ICON_NOTEBOOK = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true"><path d="M5 20h14v-2H5m14-9h-4V3H9v6H5l7 7z"/></svg>'
_ICON_WHEEL = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true"><path d="m5.12 5 .81-1h12l.94 1M12 '
    "17.5 6.5 12H10v-2h4v2h3.5zm8.54-12.27-1.39-1.68C18.88 3.21 18.47 3 18 3H6c-.47 0-.88.21-1.16.55L3.46 5.23C3.17 "
    '5.57 3 6 3 6.5V19a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6.5c0-.5-.17-.93-.46-1.27"/></svg>'
)


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


def cache_key(nb_path: str, config: Any, exec_nb: bool, include_mermaidjs: bool = True, root: Path = ROOT) -> str:
    """The rendering cache's key of a notebook (mkdocs-jupyter's ``_compute_cache_key``
    replaced): its path inside the repository at ``root``, its bytes, whether it is executed
    and the plugin's options but ``cache_dir`` (which names this build's own folder)."""
    path = Path(nb_path).resolve()
    digest = hashlib.sha256(b"attention_py notebook cache 1\0")
    digest.update(path.relative_to(root.resolve()).as_posix().encode() + b"\0")
    digest.update(path.read_bytes())
    digest.update(f"\0execute={exec_nb}\0mermaid={include_mermaidjs}\0".encode())
    options = {key: value for key, value in sorted(config.items()) if key != "cache_dir"}
    digest.update(repr(options).encode())
    return digest.hexdigest()


if not hasattr(mkdocs_jupyter.plugin, "_compute_cache_key"):
    raise ImportError("mkdocs-jupyter no longer has _compute_cache_key: see site_hooks/content/notebooks.py, fix 2")
mkdocs_jupyter.plugin._compute_cache_key = cache_key


class NotebookDownload(File):
    """A notebook's source as a file to download: not a page, although ``.ipynb`` now is one."""

    def is_documentation_page(self) -> bool:
        return False


def download_uri(page_file: File) -> str:
    """Where a notebook page's source is published: beside the page, under its own name."""
    return posixpath.join(posixpath.dirname(page_file.dest_uri), posixpath.basename(page_file.abs_src_path))


@event_priority(-200)  # after static-i18n (-100), which crashes on generated files (see assets/publish.py)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    for page_file in list(files.documentation_pages()):
        if page_file.src_uri.endswith(".ipynb"):
            files.append(
                NotebookDownload.generated(config, download_uri(page_file), abs_src_path=page_file.abs_src_path)
            )
    return files


def download_box(page: Any, config: MkDocsConfig, files: Files) -> str:
    """The links to the notebook and the wheel, and how to install it, in the page's language."""
    texts = {key: (config.extra or {}).get(key) for key in DOWNLOAD_STRINGS}
    missing = [key for key, text in texts.items() if not text]
    if missing:
        raise PluginError(f"mkdocs.yml: `extra` has no {', '.join(missing)} (the notebook pages' download links)")
    manifest = files.get_file_from_path(WHEEL_MANIFEST)
    wheel_name = json.loads(manifest.content_string)["attention_py"] if manifest is not None else None
    wheel = files.get_file_from_path(f"assets/wheels/{wheel_name}") if wheel_name else None
    notebook = files.get_file_from_path(download_uri(page.file))
    if wheel is None or notebook is None:
        raise PluginError(
            f"{page.file.src_uri}: the notebook or the wheel it needs is not published ({WHEEL_MANIFEST})"
        )

    def link(file: File, icon: str, label: str, primary: bool) -> str:
        href = html.escape(get_relative_url(file.url, page.url))
        kind = "md-button md-button--primary" if primary else "md-button"
        return f'<a class="{kind}" href="{href}" download>{icon}<span>{html.escape(label)}</span></a>'

    run = render_markdown(texts["notebook_run"].replace("{wheel}", posixpath.basename(wheel.dest_uri)))
    return (
        '<div class="notebook-download">\n<p class="notebook-download__links">'
        + link(notebook, _ICON_NOTEBOOK, texts["notebook_download"], True)
        + link(wheel, _ICON_WHEEL, texts["notebook_wheel"], False)
        + f"</p>\n{run}\n</div>\n"
    )


@event_priority(50)  # after mkdocs-jupyter (100) has put the notebook's HTML in place
def on_page_markdown(markdown: str, page: Any, config: MkDocsConfig, files: Any) -> str:
    if page.file.src_uri.endswith(".ipynb"):
        return _STRAY_CSS_REPR.sub("\n", markdown)
    return markdown


# One printed block of a cell's output (a stream: no "Out[n]" prompt, plain text), as
# mkdocs-jupyter writes it: _STREAM_START, the text, _STREAM_END.
_STREAM_START = (
    '<div class="jp-OutputArea-child">\n<div class="jp-OutputPrompt jp-OutputArea-prompt"></div>\n'
    '<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="text/plain" tabindex="0">\n<pre>'
)
_STREAM_END = "</pre>\n</div>\n</div>\n"
_STREAM = re.compile(f"{re.escape(_STREAM_START)}((?:(?!</pre>).)*){re.escape(_STREAM_END)}", re.DOTALL)
_STREAM_RUN = re.compile(f"(?:{_STREAM.pattern}){{2,}}", re.DOTALL)


def joined_streams(output: str) -> str:
    """``output`` with each run of printed blocks in a row made one block, as Jupyter shows them.
    The kernel sends what a cell prints in pieces as it flushes, so how many blocks a cell's
    output comes in depends on the machine's speed: joined, the page is the same on every build."""
    return _STREAM_RUN.sub(lambda run: _STREAM_START + "".join(_STREAM.findall(run[0])) + _STREAM_END, output)


@event_priority(-50)  # after mkdocs-jupyter has turned the notebook into HTML
def on_page_content(output: str, page: Any, config: MkDocsConfig, files: Files) -> str:
    if not page.file.src_uri.endswith(".ipynb"):
        return output
    output = joined_streams(output)
    box = download_box(page, config, files)
    end = _FIRST_H1_END.search(output)  # under the title, or first if the notebook has none
    return output[: end.end()] + "\n" + box + output[end.end() :] if end else box + output


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
