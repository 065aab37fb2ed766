"""The static server for a built site: ``python -m tartli.site serve [FOLDER]``.

Python's :class:`http.server.SimpleHTTPRequestHandler`, with what a host of the static edition
should do (docs/teachers/hosting.md says how to make nginx, Apache or a CDN do the same):

* **Compressed copies.** For a file with a precompressed copy beside it (``NAME.br``,
  ``NAME.gz``: :mod:`tartli.site.compress`), a browser that accepts the coding gets the copy,
  brotli first, with ``Content-Encoding`` and the copy's ``Content-Length``; one that does not
  gets the file's own bytes. Either answer says ``Vary: Accept-Encoding``. A request for a
  ``.gz`` or ``.br`` file itself gets that file as it is.
* **Caching** (:func:`cache_control`): a file whose name holds a hash of its content never
  changes, and is kept for a year (``immutable``); a page (HTML) and the site's settings are
  checked again on every visit; anything else is kept for ten minutes, as GitHub Pages does.
  Every answer has an ``ETag`` (per copy) and ``Last-Modified``, so that checking again costs a
  ``304 Not Modified`` with no body.
"""

from __future__ import annotations

import contextlib
import email.utils
import functools
import http.server
import os
import re
import threading
from pathlib import Path
from typing import IO, Any

from tartli.site.compress import ENCODINGS

__all__ = ["cache_control", "make_server", "serve_in_thread"]

_HASHED = re.compile(r"(?:^|[.\-_])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,}\.")
"""A name with a content hash in it: ``jlab_core.46b51ee.js``, ``352.ff006a8ce85afde3c485.js``,
``e42a88444448ac3d6054.woff2``, ``snapshot-1f2e3d4c5b6a7980.bin`` (seven or more hexadecimal
digits, with at least one letter and one digit, before a dot)."""

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
SHORT = "public, max-age=600"

_REVALIDATED = (".html", ".json", ".webmanifest")
"""Pages and settings: they name the other files, so a new build must be seen at once."""


def cache_control(name: str) -> str:
    """The ``Cache-Control`` of a file of the site, by its name.

    >>> cache_control("jlab_core.46b51ee.js")
    'public, max-age=31536000, immutable'
    >>> cache_control("snapshot-1f2e3d4c5b6a7980.bin")
    'public, max-age=31536000, immutable'
    >>> cache_control("00_index.html"), cache_control("jupyter-lite.json"), cache_control("service-worker.js")
    ('no-cache', 'no-cache', 'no-cache')
    >>> cache_control("1060.js"), cache_control("pyodide.asm.wasm")
    ('public, max-age=600', 'public, max-age=600')
    """
    if name.endswith(_REVALIDATED) or name == "service-worker.js":
        return REVALIDATE
    if _HASHED.search(name):
        return IMMUTABLE
    return SHORT


def accepted(header: str | None) -> set[str]:
    """The content codings an ``Accept-Encoding`` header accepts (``q=0`` refuses one).

    >>> sorted(accepted("gzip, deflate, br, zstd"))
    ['br', 'deflate', 'gzip', 'zstd']
    >>> sorted(accepted("br;q=0, gzip;q=0.5")), sorted(accepted(None))
    (['gzip'], [])
    """
    codings = set()
    for item in (header or "").split(","):
        name, _, params = item.partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.lower() == "q":
                with contextlib.suppress(ValueError):
                    quality = float(value)
        if name.strip() and quality > 0:
            codings.add(name.strip().lower())
    return codings


class _Counting:
    """A writer that adds the bytes written to its handler's count (the bytes on the wire)."""

    def __init__(self, raw: Any, handler: _Handler) -> None:
        self._raw = raw
        self._handler = handler

    def write(self, data: bytes) -> int:
        self._handler.written += len(data)
        written: int = self._raw.write(data)
        return written

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the base class's attribute, overridden as it documents
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".bin": "application/octet-stream",
    }

    sent: list[int] | None = None
    """If a list: the bytes on the wire (status line, headers and body) of every response are appended."""
    requested: list[str] | None = None
    """If a list: the path of every request is appended (for tests)."""

    written = 0

    def setup(self) -> None:
        super().setup()
        self.wfile = _Counting(self.wfile, self)  # type: ignore[assignment]

    def handle_one_request(self) -> None:
        self.written = 0
        super().handle_one_request()
        if self.sent is not None and self.written:
            self.sent.append(self.written)

    def log_message(self, format: str, *args: object) -> None:
        pass

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if self.requested is not None:
            self.requested.append(self.path)

    def send_head(self) -> IO[bytes] | None:  # type: ignore[override]
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        if not path.is_file():
            return super().send_head()  # a folder without its slash (redirect), or 404
        variants = {coding: path.with_name(path.name + suffix) for coding, suffix in ENCODINGS.items()}
        variants = {coding: copy for coding, copy in variants.items() if copy.is_file()}
        wanted = accepted(self.headers.get("Accept-Encoding"))
        coding = next((c for c in variants if c in wanted), None)
        sent = variants[coding] if coding else path
        try:
            file = sent.open("rb")
        except OSError:
            self.send_error(http.HTTPStatus.NOT_FOUND, "File not found")
            return None
        stat = os.fstat(file.fileno())
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}{"-" + coding if coding else ""}"'
        if self._not_modified(etag, stat.st_mtime):
            file.close()
            self.send_response(http.HTTPStatus.NOT_MODIFIED)
            self._validators(path, etag, stat.st_mtime, bool(variants))
            self.end_headers()
            return None
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Length", str(stat.st_size))
        if coding:
            self.send_header("Content-Encoding", coding)
        self._validators(path, etag, stat.st_mtime, bool(variants))
        self.end_headers()
        return file

    def _not_modified(self, etag: str, mtime: float) -> bool:
        match = self.headers.get("If-None-Match")
        if match is not None:
            return match.strip() == "*" or etag in [tag.strip().removeprefix("W/") for tag in match.split(",")]
        since = self.headers.get("If-Modified-Since")
        if since is None:
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return when.timestamp() >= int(mtime)

    def _validators(self, path: Path, etag: str, mtime: float, negotiated: bool) -> None:
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", self.date_time_string(int(mtime)))
        self.send_header("Cache-Control", cache_control(path.name))
        if negotiated:
            self.send_header("Vary", "Accept-Encoding")

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
    """A static file server for a built site (port 0: any free port); ``sent`` collects the bytes
    on the wire of every response, ``requested`` the paths asked for."""
    handler_class = type("_SiteHandler", (_Handler,), {"sent": sent, "requested": requested})
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
