"""MkDocs hook: a language switcher that works on any host, and no sitemap 404s.

- static-i18n points the switcher of each home page at absolute paths ("/he/"), which break
  when the site lives in a sub-folder (GitHub Pages project sites, previews). Making every
  switcher link relative to the site root lets MkDocs' ``url`` filter turn it into a path
  relative to the current page, which works wherever the site is served. Other pages
  already get their translation's URL (same page, other language) from static-i18n.
- Material fetches ``sitemap.xml`` beside every ``<link rel="alternate" hreflang>`` in the
  head, which 404s for /he/ and /fa/ (static-i18n writes one sitemap, at the root, with the
  hreflang alternates in it). Those head links are removed; the switcher does not need them.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority

_ALTERNATE_HEAD_LINK = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')


def _site_relative(link: str, base_path: str) -> str:
    if urlsplit(link).scheme or not link.startswith("/"):
        return link
    return link[len(base_path) :] if link.startswith(base_path) else link.lstrip("/")


@event_priority(0)  # after static-i18n (priority 50) has set this page's alternates
def on_page_context(context: dict[str, Any], page: Any, config: MkDocsConfig, nav: Any) -> dict[str, Any]:
    base_path = urlsplit(config.site_url or "").path or "/"
    base_path = base_path if base_path.endswith("/") else base_path + "/"
    # static-i18n sets the switcher as an *attribute* of config.extra, which is what Jinja
    # reads first; the mapping item is the fallback when no page context set it.
    alternates = getattr(config.extra, "alternate", None) or config.extra.get("alternate") or []
    for alternate in alternates:
        alternate["link"] = _site_relative(alternate.get("link", ""), base_path)
    return context


def on_post_page(output: str, page: Any, config: MkDocsConfig) -> str:
    return _ALTERNATE_HEAD_LINK.sub("", output)


def on_post_template(output: str, template_name: str, config: MkDocsConfig) -> str:
    return _ALTERNATE_HEAD_LINK.sub("", output) if template_name.endswith(".html") else output
