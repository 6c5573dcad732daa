"""MkDocs hook: fail the build if a page would load anything from another host.

Readers on filtered networks may not reach a CDN, and a page that quietly pulls a script
or a font from one also tells that host who reads what. Plugins add such loaders behind
our back (Google Fonts in Material, MathJax in mkdocs-jupyter, Pyodide in markdown-exec),
so every written page is checked: scripts, stylesheets, images, frames and CSS ``url()``
must be relative or same-host. Plain ``<a href>`` links to other sites are fine, they load
nothing by themselves; so are ``rel="canonical"`` and the like, which are never fetched.
"""

from __future__ import annotations

import re
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority, get_plugin_logger

log = get_plugin_logger("self_hosted")

_EXTERNAL = r"""(?:https?:)?//[^"'\s)>]+"""
_LOADERS = (
    re.compile(rf"""<(?:script|img|iframe|source|audio|video|embed|track)\b[^>]*?\bsrc=["']?({_EXTERNAL})""", re.I),
    re.compile(
        rf"""<link\b(?=[^>]*\brel=["']?(?:stylesheet|preload|modulepreload|prefetch|preconnect|dns-prefetch|icon|manifest))[^>]*?\bhref=["']?({_EXTERNAL})""",
        re.I,
    ),
    re.compile(rf"""(?:@import\s+|url\(\s*)["']?({_EXTERNAL})""", re.I),
    re.compile(
        r"""["'](https://cdn\.jsdelivr\.net/[^"']*|https://fonts\.(?:googleapis|gstatic)\.com/[^"']*)["']""", re.I
    ),
)


def _check(output: str, where: str) -> None:
    found = {match.group(1) for pattern in _LOADERS for match in pattern.finditer(output)}
    for url in sorted(found):
        log.warning(f"{where} loads {url} from another host; self-host it under assets/")


@event_priority(-500)  # after every other hook and plugin has had its say
def on_post_page(output: str, page: Any, config: MkDocsConfig) -> str:
    _check(output, page.file.src_uri)
    return output


@event_priority(-500)
def on_post_template(output: str, template_name: str, config: MkDocsConfig) -> str:
    if template_name.endswith(".html"):
        _check(output, template_name)
    return output
