"""A reader can take every notebook away, and its outputs line up with its code.

- Every notebook page, in every language, links its ``.ipynb`` and the attention_py wheel
  the site publishes (the one ``assets/wheels/manifest.json`` names), and both answer 200.
- Each notebook, downloaded from the built site over HTTP, runs in a plain Jupyter kernel
  whose only attention_py is that downloaded wheel, installed the way the page says
  (``pip install <wheel>``, here offline into a temporary folder): no repository on the
  path, no site. A failing cell fails the test with its number, code and error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import pytest

from tests.languages import CODES, DEFAULT, language

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(path.stem for path in (ROOT / "docs" / DEFAULT.code / "notebooks").glob("*.ipynb"))
PAGES = [(lang, name) for lang in CODES for name in NOTEBOOKS]


def _code_of(lang: str, name: str) -> tuple[str, ...]:
    """The code cells of a language's notebook, as written in docs/<lang>/notebooks/."""
    path = language(lang).page_path(f"notebooks/{name}.ipynb")
    if not path.exists():  # an untranslated notebook is the default language's
        path = ROOT / "docs" / DEFAULT.code / "notebooks" / f"{name}.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return tuple("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")


# A translation changes a notebook's words, usually not its code: a kernel runs each distinct
# code once (the first language that has it), and every language's download is checked above.
DISTINCT_CODE = list(
    {(name, _code_of(lang, name)): (lang, name) for lang in reversed(CODES) for name in NOTEBOOKS}.values()
)


def _get(url: str) -> tuple[int, bytes]:
    """(HTTP status, body) of a GET; a 404 is an answer to assert on, not an exception."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


class _DownloadLinks(HTMLParser):
    """The hrefs of the links inside ``<div class="notebook-download">``."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # > 0 while inside the box
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "div" and (self.depth or "notebook-download" in (dict(attrs).get("class") or "").split()):
            self.depth += 1
        elif tag == "a" and self.depth:
            self.links.append(dict(attrs).get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self.depth:
            self.depth -= 1


def _page_url(site_url: str, lang: str, name: str) -> str:
    return f"{site_url}/{language(lang).prefix}notebooks/{name}/"


def download_links(site_url: str, lang: str, name: str) -> dict[str, str]:
    """{"notebook": url, "wheel": url} as the notebook page links them."""
    status, body = _get(_page_url(site_url, lang, name))
    assert status == 200
    parser = _DownloadLinks()
    parser.feed(body.decode("utf-8"))
    page = _page_url(site_url, lang, name)
    links = {href.rsplit(".", 1)[-1]: urljoin(page, href) for href in parser.links}
    assert set(links) == {"ipynb", "whl"}, f"{page}: download links {parser.links}"
    return {"notebook": links["ipynb"], "wheel": links["whl"]}


@pytest.fixture(scope="module")
def wheel_name(site_url: str) -> str:
    status, body = _get(f"{site_url}/assets/wheels/manifest.json")
    assert status == 200
    return json.loads(body)["attention_py"]


@pytest.mark.parametrize(("lang", "name"), PAGES)
def test_notebook_page_links_its_notebook_and_the_wheel(site_url, wheel_name, lang, name):
    links = download_links(site_url, lang, name)
    assert links["wheel"] == f"{site_url}/assets/wheels/{wheel_name}"
    status, wheel = _get(links["wheel"])
    assert status == 200, f"{links['wheel']}: HTTP {status}"
    assert wheel[:2] == b"PK", f"{links['wheel']}: HTTP {status}"
    status, notebook = _get(links["notebook"])
    assert status == 200, f"{links['notebook']}: HTTP {status}"
    assert json.loads(notebook)["cells"], links["notebook"]
    status, body = _get(_page_url(site_url, lang, name))
    assert f"pip install {wheel_name}" in body.decode("utf-8")  # the page says how, with this name


@pytest.fixture(scope="module")
def installed_wheel(site_url: str, wheel_name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site's wheel, downloaded and pip-installed (offline) into a folder of its own."""
    folder = tmp_path_factory.mktemp("wheel")
    status, wheel = _get(f"{site_url}/assets/wheels/{wheel_name}")
    assert status == 200
    (folder / wheel_name).write_bytes(wheel)
    target = folder / "site-packages"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-index",
            "--quiet",
            "--target",
            str(target),
            str(folder / wheel_name),
        ],
        check=True,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    return target


PROBE = "import attention_py\nprint(attention_py.__file__)"


@pytest.mark.parametrize(("lang", "name"), DISTINCT_CODE)
def test_downloaded_notebook_runs_with_the_published_wheel(site_url, installed_wheel, tmp_path, lang, name):
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    url = download_links(site_url, lang, name)["notebook"]
    status, body = _get(url)
    assert status == 200, f"{url}: HTTP {status}"
    notebook = nbformat.reads(body.decode("utf-8"), as_version=4)
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    notebook.cells.append(nbformat.v4.new_code_cell(PROBE))  # which attention_py ran it

    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PYTHONPATH"] = str(installed_wheel)  # the wheel and nothing else: not this repository
    # A cell may take minutes: the induction notebook trains 400 steps (78 s on an idle 2-core
    # machine, twice that beside other tests), as a reader's own run does.
    client = NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    try:
        client.execute(env=env)
        failure = None
    except CellExecutionError as error:
        failure = error
    if failure is not None:  # outside the except: the report is the cell, not two tracebacks
        for number, cell in enumerate(code_cells, 1):
            errors = [out for out in cell.get("outputs", []) if out.get("output_type") == "error"]
            if errors:
                pytest.fail(
                    f"{url}: code cell {number} failed\n{cell.source}\n"
                    + "\n".join(f"{error['ename']}: {error['evalue']}" for error in errors),
                    pytrace=False,
                )
        pytest.fail(f"{url}: {failure}", pytrace=False)
    printed = "".join(out.get("text", "") for out in notebook.cells[-1].outputs)
    assert Path(printed.strip()).is_relative_to(installed_wheel), f"the kernel imported {printed.strip()}"
