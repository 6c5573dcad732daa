"""MkDocs hook: each page's Content-Security-Policy allows the page's own inline scripts by
their SHA-256, so ``script-src`` needs neither ``'unsafe-inline'`` nor ``'unsafe-eval'``.

The policy itself is written once, in docs/overrides/main.html (every page, the 404 page
included, extends it). Inline scripts come from several hands: the template (the early boot,
the search-index redirect, the accessibility fixes), Material's base template (``__md_scope``,
the palette), mkdocs-jupyter's notebook pages. Whatever wrote them, the hash of each is taken
from the page as it is written, after every other hook (priority -600: self_hosted.py checks
at -500, static-i18n's own ``on_post_page`` runs at -100), and added to ``script-src``; a script
changed by a later edit of any template or plugin is allowed by its new hash, and a script
injected by something else is refused by the browser.

Also allowed on every page: the exact text of the site files in ``ALSO_INLINE`` (a document
the page writes itself, such as the Python runtime's ``srcdoc`` frame, inherits the page's
policy, so its inline script must be listed here). A file this build does not have is skipped.

What the build refuses, naming the page: an inline event handler attribute (``onclick=`` and
the like would need ``'unsafe-hashes'``) or a ``javascript:`` address (which no hash allows);
a page with no policy, or none before its first script.

Under ``mkdocs serve`` the policy allows inline scripts (``'unsafe-inline'``, no hashes):
MkDocs' live reload adds one whose text changes on every request. ``mkdocs build`` is strict.
"""

from __future__ import annotations

import base64
import hashlib
import re
from html.parser import HTMLParser
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.files import Files

from site_hooks.build import Build

log = get_plugin_logger("script_policy")

ALSO_INLINE = ("assets/widgets/python-frame.js",)
"""Site files (paths from the site root) whose exact text a page may also run as an inline
script: the Python runtime frame's boot script, written into its ``srcdoc``."""

# The HTML standard's JavaScript MIME type essences, and the other script types it runs
# (a <script> of any other type is a data block, such as the pages' application/json, which
# the policy does not govern).
_JAVASCRIPT_TYPES = frozenset(
    {
        "",
        "module",
        "importmap",
        "speculationrules",
        "application/ecmascript",
        "application/javascript",
        "application/x-ecmascript",
        "application/x-javascript",
        "text/ecmascript",
        "text/javascript",
        "text/javascript1.0",
        "text/javascript1.1",
        "text/javascript1.2",
        "text/javascript1.3",
        "text/javascript1.4",
        "text/javascript1.5",
        "text/jscript",
        "text/livescript",
        "text/x-ecmascript",
        "text/x-javascript",
    }
)
_URL_ATTRIBUTES = frozenset({"href", "src", "action", "formaction", "xlink:href"})
_POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def executable(attributes: dict[str, str | None]) -> bool:
    """Whether a <script> with these attributes runs (rather than holds data)."""
    kind = attributes.get("type")
    if kind is None:
        language = attributes.get("language")
        kind = f"text/{language}" if language else ""
    return kind.split(";")[0].strip().lower() in _JAVASCRIPT_TYPES


def source_hash(text: str) -> str:
    """The policy's source expression that allows an inline script whose text is ``text``,
    as the browser hashes it: UTF-8, line breaks already made LF by the HTML parser."""
    normalised = text.replace("\r\n", "\n").replace("\r", "\n")
    digest = hashlib.sha256(normalised.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


class _PageScripts(HTMLParser):
    """Reads a page: its inline executable scripts' texts, where the first script and the
    policy are, and what the policy cannot allow (event handler attributes, javascript: URLs)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inline: list[str] = []
        self.refused: list[str] = []
        self.policy_at: tuple[int, int] | None = None
        self.policies = 0
        self.first_script_at: tuple[int, int] | None = None
        self._text: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        for name, value in attrs:
            if re.fullmatch(r"on[a-z]+", name):
                self.refused.append(f"<{tag} {name}=...>, an inline event handler")
            elif name in _URL_ATTRIBUTES and (value or "").strip().lower().startswith("javascript:"):
                self.refused.append(f'<{tag} {name}="javascript:...">')
        if tag == "meta" and (attributes.get("http-equiv") or "").lower() == "content-security-policy":
            self.policy_at = self.policy_at if self.policy_at is not None else self.getpos()
            self.policies += 1
        if tag == "script":
            self.first_script_at = self.first_script_at if self.first_script_at is not None else self.getpos()
            self._text = [] if "src" not in attributes and executable(attributes) else None

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._text is not None:
            self.inline.append("".join(self._text))
            self._text = None


def inline_scripts(output: str) -> list[str]:
    """The texts of the page's inline scripts that run, in document order."""
    reader = _PageScripts()
    reader.feed(output)
    reader.close()
    return reader.inline


def with_script_hashes(output: str, where: str, also: tuple[str, ...] = (), *, serving: bool = False) -> str:
    """The page with the hash of each inline script it runs (and the source expressions
    ``also``) added to its policy's script-src, or, ``serving`` (under ``mkdocs serve``),
    ``'unsafe-inline'``; refuses what no hash can allow."""
    reader = _PageScripts()
    reader.feed(output)
    reader.close()
    if reader.refused:
        raise PluginError(f"{where}: {'; '.join(sorted(set(reader.refused)))}: move it into a script")
    found = list(_POLICY.finditer(output))
    if len(found) != 1 or reader.policies != 1:
        raise PluginError(
            f"{where}: {reader.policies} Content-Security-Policy <meta> (docs/overrides/main.html writes one)"
        )
    if reader.first_script_at is not None and reader.first_script_at < (reader.policy_at or (0, 0)):
        raise PluginError(f"{where}: a script comes before the Content-Security-Policy <meta>, which must be first")
    allowed = ["'unsafe-inline'"] if serving else list(dict.fromkeys([*map(source_hash, reader.inline), *also]))
    directives = [directive.strip() for directive in found[0].group(1).split(";")]
    scripts = [i for i, directive in enumerate(directives) if directive.split(" ")[0] == "script-src"]
    if len(scripts) != 1:
        raise PluginError(f"{where}: the Content-Security-Policy has no script-src directive")
    directives[scripts[0]] = " ".join([directives[scripts[0]], *allowed])
    start, end = found[0].span(1)
    return output[:start] + "; ".join(directives) + output[end:]


def on_startup(command: str, **kwargs: Any) -> None:
    if command == "serve":  # the build knows it too (Build.serving, set by site_hooks/hooks.py)
        log.info("mkdocs serve: pages allow inline scripts ('unsafe-inline') for live reload; the built site does not")


@event_priority(-600)  # every file is in the list (publish.py adds the widgets at -200)
def on_env(env: Any, config: MkDocsConfig, files: Files, build: Build) -> Any:
    present = [files.get_file_from_path(path) for path in ALSO_INLINE]
    build.also_inline = tuple(source_hash(file.content_bytes.decode("utf-8")) for file in present if file is not None)
    return env


@event_priority(-600)  # after every other hook and plugin has changed the page
def on_post_page(output: str, page: Any, config: MkDocsConfig, build: Build) -> str:
    return with_script_hashes(output, page.file.src_uri, build.also_inline, serving=build.serving)


@event_priority(-600)
def on_post_template(output: str, template_name: str, config: MkDocsConfig, build: Build) -> str:
    """Theme pages that are no Markdown page: 404.html."""
    if not template_name.endswith(".html"):
        return output
    return with_script_hashes(output, template_name, build.also_inline, serving=build.serving)
