"""MkDocs hook: the site's service worker, ``sw.js`` at the site root, with this build's list
of files in it (docs/widgets/offline/service-worker.js says what the worker does with it).

Once the build has written every language and the search indexes (the outer build's
``on_post_build``, after static-i18n's loop over the other languages and search.py's
indexes; the inner, per-language builds are skipped), every file a reader may fetch is listed with its revision (the first 16 hex digits of its SHA-256), its
size and its group:

- a language's code (``en``, ``he``...) for what lives under that language's home (the
  default language's is the site root, outside ``assets/``): its pages, its search index;
- ``python`` for what the page's Python worker fetches (assets/pyodide/, assets/wheels/), its
  script and the script of the worker that fetches for it, which the page cannot list itself;
- ``shared`` for everything else (styles, scripts, fonts, data), but for a CJK face's folder
  that one language alone uses, which is that language's (``owned_folders``).

Pages (``index.html``) also get their title, for the offline page's list of what is kept.
Each file name's extension gets the Content-Type the worker serves a kept copy with (never
the headers stored beside it, which anything of the site's origin can rewrite): a file whose
extension has none in ``CONTENT_TYPES`` stops the build. The worker's own repair page takes
its words from each language's strings (``REPAIR_WORDS`` of the ``page`` section).
Not listed, so never kept: Material's search stemmers for languages not built, source maps, notebook downloads (``.ipynb``), the sitemap, the
404 page and the memory image's gzip (the page keeps the image inflated itself,
docs/widgets/runtime/image-cache.js). The build's id is the digest of the list: a new build
is a new ``sw.js``, which the browser installs in place of the old one.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from site_hooks.assets import products, vendored
from site_hooks.content.figures import strings_for
from site_hooks.i18n import languages

WORKER = "sw.js"  # at the site root, so that its scope is the whole site
WORKER_SOURCE = "service-worker.js"  # scripts/build-widgets.mjs's bundle of docs/widgets/offline/service-worker.js
PYTHON_FILES = (
    "assets/pyodide/",
    "assets/wheels/",
    "assets/widgets/python-worker.js",
    "assets/widgets/files-worker.js",
)
OFFLINE_PAGE = "offline/index.html"  # under each language's home (docs/<lang>/offline.md)
_NOT_KEPT = re.compile(r"(\.map|\.ipynb|^sitemap\.xml(\.gz)?|^objects\.inv|^404\.html|^assets/snapshot/.*\.gz)$")
_LUNR = re.compile(r"^assets/javascripts/lunr/(?:min/lunr\.(.+)\.min\.js|(tinyseg|wordcut)\.js)$")
_TITLE = re.compile(rb"<title>(.*?)</title>", re.DOTALL)

CONTENT_TYPES = MappingProxyType(
    {
        ".html": "text/html; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".mjs": "text/javascript; charset=utf-8",
        ".json": "application/json",
        ".wasm": "application/wasm",
        ".zip": "application/zip",
        ".whl": "application/zip",
        ".woff2": "font/woff2",
        ".woff": "font/woff",
        ".ttf": "font/ttf",
        ".png": "image/png",
        ".jpg": "image/jpeg",
        ".jpeg": "image/jpeg",
        ".gif": "image/gif",
        ".webp": "image/webp",
        ".svg": "image/svg+xml",
        ".ico": "image/x-icon",
        ".txt": "text/plain; charset=utf-8",
        ".xml": "application/xml",
        ".py": "text/x-python; charset=utf-8",
        ".webmanifest": "application/manifest+json",
    }
)
"""What a kept file is served with, by the extension of its name."""

REPAIR_WORDS = ("repair_page_title", "repair_page_done", "repair_page_continue")


def revision(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def group_of(path: str, homes: dict[str, str], owned: Mapping[str, str] = MappingProxyType({})) -> str:
    """The group of the file at ``path`` (relative to the site root): see the module's docstring.
    ``owned`` maps folders of assets only one language uses to its code (``owned_folders``)."""
    if path.startswith(PYTHON_FILES):
        return "python"
    if owner := next((code for folder, code in owned.items() if path.startswith(folder)), None):
        return owner
    if path.startswith("assets/"):
        return "shared"
    return next((code for code, home in homes.items() if home and path.startswith(home)), _default(homes))


def _default(homes: dict[str, str]) -> str:
    return next(code for code, home in homes.items() if not home)


def _other_lunr(path: str, homes: dict[str, str]) -> bool:
    """True for Material's search stemmers of languages the site does not build (about 0.9 MB)."""
    found = _LUNR.match(path)
    if not found:
        return False
    language = found.group(1) or {"tinyseg": "ja", "wordcut": "th"}[found.group(2)]
    return bool(re.fullmatch(r"[a-z]{2,3}", language)) and language not in homes  # not support, multi, normalised


def repair_words(built: Iterable[languages.SiteLanguage]) -> dict[str, dict[str, str]]:
    """What the worker's repair page says in each built language, and the language's direction."""
    return {
        lang.locale: {"dir": lang.direction, **{key: strings_for(lang.locale)["page"][key] for key in REPAIR_WORDS}}
        for lang in built
    }


def owned_folders(built: Iterable[languages.SiteLanguage]) -> dict[str, str]:
    """The folders of sliced (CJK) faces that one built language alone uses, to that language's
    code: a reader who keeps Hebrew for offline reading does not download 10 MB of Chinese."""
    users: dict[str, list[str]] = {}
    for lang in built:
        if vendored.is_sliced(lang.face):
            users.setdefault(vendored.face_folder(lang.face), []).append(lang.locale)
    return {folder: codes[0] for folder, codes in users.items() if len(codes) == 1}


def extension_of(name: str) -> str:
    """The extension of ``name``, lower case: ".css" for "assets/site.css"; "" for none."""
    base = name.rpartition("/")[2]
    dot = base.rfind(".")
    return base[dot:].lower() if dot > 0 else ""


def type_of(name: str) -> str:
    """The Content-Type of the listed file ``name``; the build stops on one it does not know."""
    found = CONTENT_TYPES.get(extension_of(name))
    if found is None:
        raise PluginError(
            f"{name}: no Content-Type for {extension_of(name) or 'a name without an extension'} "
            "(add it to CONTENT_TYPES in site_hooks/assets/offline.py, or list the file as not kept)"
        )
    return found


def site_files(
    site_dir: Path,
    homes: dict[str, str],
    site_name: str = "",
    owned: Mapping[str, str] = MappingProxyType({}),
    words: Mapping[str, Mapping[str, str]] = MappingProxyType({}),
) -> dict[str, Any]:
    """The list ``sw.js`` carries: files (path -> [revision, bytes, group]), page titles,
    each language's home and offline page, the Content-Type of each extension listed, what
    the worker's repair page says in each language (``words``: ``repair_words``), and the
    build's id."""
    files: dict[str, list[Any]] = {}
    titles: dict[str, str] = {}
    types: dict[str, str] = {}
    for path in sorted(site_dir.rglob("*")):
        name = path.relative_to(site_dir).as_posix()
        if not path.is_file() or name == WORKER or _NOT_KEPT.search(name) or _other_lunr(name, homes):
            continue
        data = path.read_bytes()
        types[extension_of(name)] = type_of(name)
        files[name] = [revision(data), len(data), group_of(name, homes, owned)]
        if name.endswith("index.html") and (title := _TITLE.search(data)):
            text = html.unescape(title.group(1).decode("utf-8")).strip()
            titles[name] = text.removesuffix(f" - {site_name}") if site_name and text != site_name else text
    for code, home in homes.items():
        if home + OFFLINE_PAGE not in files:
            raise PluginError(f"{home + OFFLINE_PAGE} was not built: docs/{code}/offline.md is missing")
    listing = {
        "files": files,
        "titles": titles,
        "homes": homes,
        "offline": {code: home + OFFLINE_PAGE for code, home in homes.items()},
        "types": dict(sorted(types.items())),
        "words": {code: dict(words[code]) for code in homes if code in words},
    }
    listing["build"] = revision(json.dumps(listing, sort_keys=True).encode())
    return listing


@event_priority(-300)  # after static-i18n (-100) and search.py (-200)
def on_post_build(config: MkDocsConfig) -> None:
    i18n = config.plugins.get("i18n")
    if i18n is not None and getattr(i18n, "building", False):
        return  # a language built inside static-i18n's loop: the whole site comes later
    site_dir = Path(config.site_dir)
    built = languages.site_languages(config)
    homes = {lang.locale: lang.home for lang in built}
    code = products.widget_files()[WORKER_SOURCE].read_text(encoding="utf-8")
    listing = site_files(site_dir, homes, config.site_name, owned_folders(built), repair_words(built))
    text = json.dumps(listing, ensure_ascii=False, separators=(",", ":"))
    (site_dir / WORKER).write_text(f"self.__APY_SITE = {text};\n{code}", encoding="utf-8")
