"""Hook: accessibility fixes to Material's own markup, found by axe-core
(tests/e2e/test_accessibility.py).

- The search overlay is a ``role="dialog"`` without a name; it gets the name of the search
  field inside it (Material's translation of "Search", so every language is covered). If
  Material's markup changes so that the fix no longer applies, the build says so.
"""

from __future__ import annotations

import re
from typing import Any

from mkdocs.exceptions import PluginError

_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
_FIELD_LABEL = re.compile(r'<input type="text" class="md-search__input"[^>]*? aria-label="([^"]+)"')


def on_post_page(output: str, page: Any, **kwargs: Any) -> str:
    return _name_search_dialog(output, page.file.src_uri)


def on_post_template(output: str, template_name: str, **kwargs: Any) -> str:
    """Theme pages that are no Markdown page: 404.html."""
    return _name_search_dialog(output, template_name)


def _name_search_dialog(output: str, where: str) -> str:
    if "md-search" not in output:
        return output
    label = _FIELD_LABEL.search(output)
    if _DIALOG not in output or not label:
        raise PluginError(f"{where}: Material's search markup changed; update site_hooks/guards/accessibility.py")
    return output.replace(_DIALOG, _DIALOG[:-1] + f' aria-label="{label.group(1)}">', 1)
