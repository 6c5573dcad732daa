"""A static file server on a free localhost port, for the browser tests and benchmarks.

It behaves like a plain static host (GitHub Pages): correct types for .mjs/.wasm/.whl,
Last-Modified with 304 answers, and ``Cache-Control: max-age=600``. With ``isolated`` it
also sends the cross-origin isolation headers (COOP/COEP) that a host may add. It counts
the body bytes it sends, so a benchmark can tell what a visit transferred.
"""

from __future__ import annotations

import functools
import http.server
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
    delays: ClassVar[dict[str, float]] = {}  # path -> seconds to wait before answering
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
        if path in self.delays:  # a slow file (a test of what a slow connection does)
            time.sleep(self.delays[path])
        if path not in self.extra_files:
            super().do_GET()
            return
        if self.extra_files[path] is None:  # a file the test or benchmark hides
            self.send_error(404)
            return
        content_type, body = self.extra_files[path]
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.counter[0] += len(body)

    def copyfile(self, source, outputfile) -> None:  # type: ignore[no-untyped-def]
        before = source.tell()
        super().copyfile(source, outputfile)
        self.counter[0] += source.tell() - before

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        """A browser that closes a page mid-download is normal here: stay quiet about it."""
        import sys

        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


class StaticServer:
    """Serves ``directory``; ``url`` is its base, ``bytes_sent`` counts body bytes."""

    def __init__(
        self,
        directory: Path,
        *,
        isolated: bool = False,
        extra_files: dict[str, tuple[str, bytes] | None] | None = None,
        delays: dict[str, float] | None = None,
    ):
        self._counter = [0]
        handler = type(
            "Handler",
            (_Handler,),
            {
                "isolated": isolated,
                "extra_files": dict(extra_files or {}),
                "counter": self._counter,
                "delays": dict(delays or {}),
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

    def start(self) -> StaticServer:
        self._thread.start()
        return self

    def stop(self) -> None:
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
