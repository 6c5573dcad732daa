"""devtools.static_server: the host the browser tests and benchmarks serve the site from. With
``compress`` it gzips what GitHub Pages gzips, and counts what goes on the wire."""

from __future__ import annotations

import gzip
import http.client
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from devtools.static_server import serve

PAGE = "<!doctype html><p>" + "attention " * 500 + "</p>"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "index.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "data.json").write_text('{"a": [' + "1, " * 300 + "1]}", encoding="utf-8")
    (tmp_path / "module.wasm").write_bytes(b"\0asm" + bytes(2000))
    (tmp_path / "package.whl").write_bytes(b"PK" + bytes(2000))
    (tmp_path / "image.gz").write_bytes(gzip.compress(bytes(2000)))
    return tmp_path


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def get(url: str, **headers: str):  # type: ignore[no-untyped-def]
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers)) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.mark.parametrize("path", ["/guide/", "/data.json", "/module.wasm"])
def test_text_json_and_webassembly_go_gzipped_and_are_counted_as_sent(site, path):
    with serve(site, compress=True) as server:
        status, headers, body = get(server.url + path, **{"Accept-Encoding": "gzip, br"})
        assert status == 200
        assert headers["Content-Encoding"] == "gzip"
        assert headers["Vary"] == "Accept-Encoding"
        plain = (site / path.strip("/") / "index.html") if path.endswith("/") else site / path.strip("/")
        assert gzip.decompress(body) == plain.read_bytes()
        assert len(body) < plain.stat().st_size
        assert server.sent == [(path, len(body))]
        assert server.bytes_sent == len(body) == int(headers["Content-Length"])


@pytest.mark.parametrize("path", ["/package.whl", "/image.gz"])
def test_archives_go_as_they_are(site, path):
    with serve(site, compress=True) as server:
        status, headers, body = get(server.url + path, **{"Accept-Encoding": "gzip"})
        assert status == 200
        assert headers["Content-Encoding"] is None
        assert body == (site / path.strip("/")).read_bytes()
        assert server.sent == [(path, len(body))]


def test_nothing_is_gzipped_for_a_client_that_does_not_ask_or_a_server_that_does_not_compress(site):
    with serve(site, compress=True) as server:
        _, headers, body = get(server.url + "/guide/")
        assert headers["Content-Encoding"] is None
        assert body == PAGE.encode()
    with serve(site) as server:
        _, headers, body = get(server.url + "/guide/", **{"Accept-Encoding": "gzip"})
        assert headers["Content-Encoding"] is None
        assert body == PAGE.encode()
        assert server.sent == [("/guide/", len(PAGE.encode()))]


def test_a_gzipped_file_asked_again_unchanged_is_a_304_with_no_body(site):
    with serve(site, compress=True) as server:
        _, headers, _ = get(server.url + "/data.json", **{"Accept-Encoding": "gzip"})
        server.reset_count()
        status, _, body = get(
            server.url + "/data.json", **{"Accept-Encoding": "gzip", "If-Modified-Since": headers["Last-Modified"]}
        )
        assert (status, body, server.bytes_sent) == (304, b"", 0)


def test_a_folder_without_its_slash_is_sent_to_its_address_first(site):
    with serve(site, compress=True) as server:
        status, headers, _ = get(server.url + "/guide", **{"Accept-Encoding": "gzip"})
        assert status == 301
        assert headers["Location"].endswith("/guide/")


def test_a_failing_host_answers_its_status_after_the_requests_let_through_until_healed(site):
    with serve(site) as server:
        server.fail(503, after=1)
        assert get(server.url + "/data.json")[0] == 200
        assert get(server.url + "/data.json")[0] == 503
        assert get(server.url + "/guide/")[0] == 503
        server.fail(0)
        with pytest.raises((ConnectionError, urllib.error.URLError, http.client.RemoteDisconnected)):
            get(server.url + "/guide/")
        server.heal()
        assert get(server.url + "/guide/")[0] == 200


def test_a_hanging_host_holds_requests_until_healed(site):
    import threading

    with serve(site) as server:
        server.fail(None)
        answers: list[int] = []
        waiting = threading.Thread(target=lambda: answers.append(get(server.url + "/data.json")[0]))
        waiting.start()
        waiting.join(0.5)
        assert answers == [], "held while the host hangs"
        server.heal()
        waiting.join(5)
        assert answers == [200]


def test_a_slow_link_delays_each_answer_and_shares_its_throughput(site):
    """``link``: every answer waits the latency; two bodies at once take as long as both
    one after the other, whoever asks (a page, a worker, a service worker)."""
    (site / "big.gz").write_bytes(bytes(100_000))
    with serve(site, link=(0.2, 500_000)) as server:
        start = time.monotonic()
        assert get(server.url + "/data.json")[0] == 200
        assert 0.2 <= time.monotonic() - start < 1.0
        start = time.monotonic()
        answers = []
        both = [threading.Thread(target=lambda: answers.append(get(server.url + "/big.gz"))) for _ in range(2)]
        for thread in both:
            thread.start()
        for thread in both:
            thread.join()
        took = time.monotonic() - start
        assert [len(body) for _, _, body in answers] == [100_000, 100_000]
        assert 0.2 + 200_000 / 500_000 <= took < 2.0, took
