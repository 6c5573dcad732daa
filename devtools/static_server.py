"""A static file server on a free localhost port, for the browser tests and benchmarks.

It behaves like a plain static host (GitHub Pages): correct types for .mjs/.wasm/.whl,
Last-Modified with 304 answers, ``Cache-Control: max-age=600`` and
``Access-Control-Allow-Origin: *`` (GitHub Pages sends it on every file: the Python worker,
in its sandboxed frame of opaque origin, reads a file synchronously by a CORS request when
the page is not cross-origin isolated, docs/widgets/README.md). With ``isolated`` it
also sends the cross-origin isolation headers (COOP/COEP) that a host may add. With ``gzip``
it compresses what GitHub Pages compresses (text, JavaScript, JSON, SVG, WebAssembly; not
archives, images or fonts, which are compressed already) for a client that accepts it. It
counts the body bytes it sends, as they go on the wire, in all and by path (``sent``), so a
benchmark can tell what a visit transferred. ``fail(status, after=n)`` makes it a failing host
until ``heal()``: every request after the next ``n`` is answered with ``status``, its
connection closed unanswered (``status=0``), or held unanswered (``status=None``). That is
what a service worker's download meets when a host goes down half-way (Playwright's ``route``
never sees a service worker's requests). ``link=(latency_s, bytes_per_s)`` makes it a slow
link for every client alike (the page, its workers, its service worker, its frames, which a
page's DevTools throttling does not all reach): each answer waits ``latency_s`` before its
headers, and all bodies share the throughput.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar


class _Handler(http.server.SimpleHTTPRequestHandler):
    isolated = False
    extra_files: ClassVar[dict[str, tuple[str, bytes] | None]] = {}  # path -> (type, body), or None: 404
    counter: ClassVar[list[int]] = [0]
    sent: ClassVar[list[tuple[str, int]]] = []  # (path, body bytes) of each answer, in order
    compress = False
    delays: ClassVar[dict[str, float]] = {}  # path -> seconds to wait before answering
    fault: ClassVar[_Fault]
    link: ClassVar[_Link | None] = None
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".whl": "application/zip",
        ".json": "application/json",
    }

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        if self.fault.strikes():
            if self.fault.status is None:  # a host that accepts and never answers, until healed
                self.fault.healed.wait()
            elif self.fault.status == 0:  # a connection closed with no answer at all
                self.close_connection = True
                return
            else:
                self.send_error(self.fault.status)
                return
        if path in self.delays:  # a slow file (a test of what a slow connection does)
            time.sleep(self.delays[path])
        if self.link:
            time.sleep(self.link.latency)
        if path in self.extra_files:
            if self.extra_files[path] is None:  # a file the test or benchmark hides
                self.send_error(404)
                return
            content_type, body = self.extra_files[path]  # type: ignore[misc]
            self._answer(content_type, body, None)
            return
        file = self._compressible_file()
        if file is None:
            super().do_GET()
            return
        stat = os.stat(file)
        since = self.headers.get("If-Modified-Since")
        modified = self.date_time_string(int(stat.st_mtime))
        if since == modified:
            self.send_response(304)
            self.end_headers()
            self._count(0)
            return
        self._answer(self.guess_type(file), _gzipped(file, stat.st_mtime_ns), modified, encoded=True)

    def _compressible_file(self) -> str | None:
        """The file to send gzipped, if the server compresses, the client accepts gzip and the
        file's type is one GitHub Pages compresses."""
        if not self._gzip_wanted():
            return None
        file = self.translate_path(self.path)
        if os.path.isdir(file):
            if not self.path.split("?")[0].endswith("/"):
                return None  # the plain handler redirects to the folder's address first
            file = os.path.join(file, "index.html")
        if not os.path.isfile(file) or not _compressible(self.guess_type(file)):
            return None
        return file

    def _answer(self, content_type: str, body: bytes, modified: str | None, *, encoded: bool = False) -> None:
        if not encoded and self._gzip_wanted() and _compressible(content_type):
            body, encoded = gzip.compress(body, 6, mtime=0), True
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if modified:
            self.send_header("Last-Modified", modified)
        if encoded:
            self.send_header("Content-Encoding", "gzip")
        if self.compress:
            self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self._count(len(body))  # before the body goes: a client that has read it finds it counted
        self._write(body)

    def _write(self, body: bytes) -> None:
        """Sends ``body``, at the link's pace when there is one."""
        if not self.link:
            self.wfile.write(body)
            return
        for start in range(0, len(body), _Link.CHUNK):
            chunk = body[start : start + _Link.CHUNK]
            self.link.wait_for(len(chunk))
            self.wfile.write(chunk)

    def _gzip_wanted(self) -> bool:
        """Whether this server compresses and the client accepts gzip."""
        return self.compress and "gzip" in self.headers.get("Accept-Encoding", "")

    def _count(self, size: int) -> None:
        self.counter[0] += size
        self.sent.append((self.path.split("?")[0], size))

    def copyfile(self, source, outputfile) -> None:  # type: ignore[no-untyped-def]
        self._count(os.fstat(source.fileno()).st_size - source.tell())  # counted before it goes, as above
        if self.link:
            self._write(source.read())
        else:
            super().copyfile(source, outputfile)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        self.send_header("Access-Control-Allow-Origin", "*")
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


COMPRESSED_TYPES = (
    "application/json",
    "application/javascript",
    "application/wasm",
    "application/xml",
    "image/svg+xml",
)
"""Besides text/*: the types GitHub Pages sends gzipped (archives, images, fonts go as they are)."""


def _compressible(content_type: str) -> bool:
    kind = content_type.split(";")[0].strip()
    return kind.startswith("text/") or kind in COMPRESSED_TYPES


@functools.lru_cache(maxsize=256)
def _gzipped(file: str, mtime_ns: int) -> bytes:
    """The file gzipped at level 6 (a static host's usual level), kept while it is unchanged."""
    with open(file, "rb") as source:
        return gzip.compress(source.read(), 6, mtime=0)


class _Link:
    """A slow link's latency and its throughput, shared by every answer under way."""

    CHUNK = 16 * 1024

    def __init__(self, latency: float, rate: float) -> None:
        self.latency, self.rate = latency, rate
        self._lock = threading.Lock()
        self._free_at = 0.0  # when the link has sent what was given it so far

    def wait_for(self, size: int) -> None:
        """Waits until ``size`` more bytes would have crossed the link."""
        with self._lock:
            self._free_at = max(self._free_at, time.monotonic()) + size / self.rate
            done = self._free_at
        time.sleep(max(0.0, done - time.monotonic()))


class _Fault:
    """A failure the test switches on: after ``after`` more answers, every GET fails (see
    ``StaticServer.fail``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._armed = False
        self._after = 0
        self.status: int | None = None
        self.healed = threading.Event()

    def arm(self, status: int | None, after: int) -> None:
        with self._lock:
            self.status, self._after, self._armed = status, after, True
            self.healed.clear()

    def disarm(self) -> None:
        with self._lock:
            self._armed = False
            self.healed.set()

    def strikes(self) -> bool:
        """Whether this request fails (counting down the answers let through first)."""
        with self._lock:
            if not self._armed:
                return False
            if self._after > 0:
                self._after -= 1
                return False
            return True


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        """A browser that closes a page mid-download is normal here: stay quiet about it."""
        import sys

        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


class StaticServer:
    """Serves ``directory``; ``url`` is its base, ``bytes_sent`` counts body bytes and ``sent``
    lists them by path; ``compress``: gzip as GitHub Pages does."""

    def __init__(
        self,
        directory: Path,
        *,
        isolated: bool = False,
        extra_files: dict[str, tuple[str, bytes] | None] | None = None,
        delays: dict[str, float] | None = None,
        compress: bool = False,
        link: tuple[float, float] | None = None,
    ):
        self._counter = [0]
        self.sent: list[tuple[str, int]] = []  # (path, body bytes on the wire) of each answer
        self._fault = _Fault()
        handler = type(
            "Handler",
            (_Handler,),
            {
                "isolated": isolated,
                "extra_files": dict(extra_files or {}),
                "counter": self._counter,
                "sent": self.sent,
                "compress": compress,
                "delays": dict(delays or {}),
                "fault": self._fault,
                "link": _Link(*link) if link else None,
            },
        )
        self._server = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def bytes_sent(self) -> int:
        return self._counter[0]

    def reset_count(self) -> None:
        self._counter[0] = 0
        self.sent.clear()

    def start(self) -> StaticServer:
        self._thread.start()
        return self

    def fail(self, status: int | None = 503, *, after: int = 0) -> None:
        """From the request after the next ``after``, answer every GET with ``status`` (a 503:
        a host that is down), close the connection unanswered (``status=0``), or with
        ``status=None`` hold it unanswered until ``heal()``."""
        self._fault.arm(status, after)

    def heal(self) -> None:
        """The host is back: every request is answered again (held ones too)."""
        self._fault.disarm()

    def stop(self) -> None:
        self.heal()  # a held request would keep its thread waiting
        self._server.shutdown()
        self._server.server_close()


@contextmanager
def serve(directory: Path, **options: object) -> Iterator[StaticServer]:
    """``with serve(site_dir) as server: ... server.url ...``"""
    server = StaticServer(directory, **options).start()  # type: ignore[arg-type]
    try:
        yield server
    finally:
        server.stop()
