"""The static server for a built site: ``python -m tartli.site serve [FOLDER]``."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from pathlib import Path

__all__ = ["make_server", "serve_in_thread"]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the base class's attribute, overridden as it documents
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
    }

    sent: list[int] | None = None
    """If a list: the size of every response body sent with status 200 is appended (for benchmarks)."""
    requested: list[str] | None = None
    """If a list: the path of every request is appended (for tests)."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if self.requested is not None:
            self.requested.append(self.path)
        if self.sent is not None and code == 200:
            path = Path(self.translate_path(self.path))
            if path.is_file():
                self.sent.append(path.stat().st_size)

    def end_headers(self) -> None:
        # Ten minutes of freshness, as GitHub Pages gives: a second visit uses the browser's cache
        # (and Chromium's cache of compiled WebAssembly) without asking again.
        self.send_header("Cache-Control", "public, max-age=600")
        super().end_headers()

    def handle(self) -> None:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the browser gave up on a response
            super().handle()


def make_server(
    folder: Path,
    port: int = 8000,
    host: str = "127.0.0.1",
    sent: list[int] | None = None,
    requested: list[str] | None = None,
) -> http.server.ThreadingHTTPServer:
    """A static file server for a built site (port 0: any free port); ``sent`` collects the sizes
    of the files it sends whole, ``requested`` the paths asked for."""
    handler_class = type("_Handler", (_QuietHandler,), {"sent": sent, "requested": requested})
    handler = functools.partial(handler_class, directory=str(folder))
    return http.server.ThreadingHTTPServer((host, port), handler)


def serve_in_thread(
    folder: Path, port: int = 0, sent: list[int] | None = None, requested: list[str] | None = None
) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve ``folder`` in a background thread; the server and its address."""
    server = make_server(folder, port, sent=sent, requested=requested)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, bound = server.server_address[:2]
    return server, f"http://{host!s}:{bound}/"
