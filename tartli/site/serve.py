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
* **Connections that send nothing** (:class:`SiteServer`). No thread waits on a connection: one
  thread gathers every connection's request head without blocking, and only a whole head is
  handed to one of a few workers (:data:`WORKERS`), which answer one request per connection. A
  connection whose head has not come in whole within :data:`READ_TIMEOUT` seconds (idle, or sent a
  byte at a time) is closed, the oldest first when :data:`MAX_WAITING` are waiting; a head over
  :data:`MAX_HEAD` bytes is refused (431). So a thousand idle connections hold no thread, and a
  browser's request is answered meanwhile.
* **Odd requests** get a short answer and no traceback: a NUL byte in the path (``%00``) is a 400; a
  folder without its ``index.html`` is a 404, never a listing of its files. Each refused request
  is logged (on stderr) in one line of at most :data:`LOG_LINE` characters, its address escaped, at
  most :data:`LOG_PER_MINUTE` lines a minute and then one line that counts the rest.
"""

from __future__ import annotations

import contextlib
import email.utils
import functools
import http.server
import io
import os
import re
import selectors
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, TextIO

from tartli.errors import cut, printable
from tartli.site.compress import ENCODINGS

__all__ = ["SiteServer", "cache_control", "make_server", "serve_in_thread"]

READ_TIMEOUT = 10.0
"""Seconds a connection has to send its whole request head (and a stalled response to move on)."""
WORKERS = 8
"""Threads that answer requests (a request is a file read: a few suffice for a class's browsers)."""
MAX_WAITING = 512
"""Connections waiting for their request head at most: past that the one waiting longest is closed."""
MAX_HEAD = 64 * 1024
"""The longest request head read (request line and headers; a browser's is under 8 KB)."""
LOG_LINE = 300
"""The longest line logged for a refused request."""
LOG_PER_MINUTE = 60
"""Refused requests logged one by one in a minute; the rest are counted in one line."""

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

    def handle_one_request(self) -> None:
        self.written = 0
        super().handle_one_request()
        if self.sent is not None and self.written:
            self.sent.append(self.written)

    def setup(self) -> None:
        if isinstance(self.request, tuple):  # (the connection, its request head) from SiteServer
            self.request, self._head = self.request
        else:
            self._head = None
        super().setup()
        if self._head is not None:
            self.rfile.close()  # (an open file of the socket would keep it open after the answer)
            self.rfile = io.BytesIO(self._head)
        self.wfile = _Counting(self.wfile, self)  # type: ignore[assignment]

    def log_message(self, format: str, *args: object) -> None:
        pass

    def log_error(self, format: str, *args: object) -> None:
        """One line for a refused request (``send_error``): its status, the client, what it asked."""
        server = self.server
        if isinstance(server, SiteServer):
            code = args[0] if args else "-"
            asked = getattr(self, "requestline", "") or ""
            server.log_refused(f"{code} {self.client_address[0]} {printable(asked)}")

    def list_directory(self, path: str | os.PathLike[str]) -> io.BytesIO | None:
        """A folder without its ``index.html`` is not listed (its files are the site's, not a page)."""
        self.send_error(http.HTTPStatus.NOT_FOUND, "File not found")
        return None

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if self.requested is not None:
            self.requested.append(self.path)

    def send_head(self) -> IO[bytes] | None:  # type: ignore[override]
        translated = self.translate_path(self.path)
        if "\x00" in translated:  # %00: no file has it in its name (and os calls refuse it)
            self.send_error(http.HTTPStatus.BAD_REQUEST, "Bad request")
            return None
        try:
            return self._send_head(Path(translated))
        except (OSError, ValueError):  # a name too long for the file system, say: no such file
            self.send_error(http.HTTPStatus.NOT_FOUND, "File not found")
            return None

    def _send_head(self, path: Path) -> IO[bytes] | None:
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
        # The browser gave up on a response, or stopped reading it for READ_TIMEOUT.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError, TimeoutError):
            super().handle()


class SiteServer(http.server.HTTPServer):
    """An HTTP server that holds no thread for a connection that has not sent a whole request head.

    :meth:`process_request` only hands the new connection to the gathering thread; that thread
    reads every waiting connection's head as it comes (a selector, no blocking), closes those that
    take longer than ``read_timeout`` (the oldest first past ``max_waiting``), and hands each whole
    head to the pool of ``workers`` threads.
    """

    allow_reuse_address = True
    request_queue_size = 128  # (socketserver's 5 drops the connections of a class arriving at once: a 1 s retry each)

    def __init__(
        self,
        address: tuple[str, int],
        handler: Any,
        *,
        workers: int = WORKERS,
        read_timeout: float = READ_TIMEOUT,
        max_waiting: int = MAX_WAITING,
        log: TextIO | None = None,
    ) -> None:
        super().__init__(address, handler)
        self.read_timeout = read_timeout
        self.max_waiting = max_waiting
        self.log = log
        self.closed_idle = 0
        """Connections closed without a whole request head (a test reads it)."""
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="tartli-site")
        self._selector = selectors.DefaultSelector()
        self._waiting: dict[socket.socket, tuple[Any, float, bytearray]] = {}  # oldest first
        self._new: list[tuple[socket.socket, Any]] = []
        self._lock = threading.Lock()
        self._wake_read, self._wake_write = socket.socketpair()
        self._wake_read.setblocking(False)
        self._selector.register(self._wake_read, selectors.EVENT_READ)
        self._running = True
        self._log_minute = 0
        self._logged = 0
        self._unlogged = 0
        self._idle_unlogged = 0
        self._idle_logged_at = -60.0
        self._gatherer = threading.Thread(target=self._gather, name="tartli-site-gather", daemon=True)
        self._gatherer.start()

    # ------------------------------------------------------------ the listening thread
    def process_request(self, request: Any, client_address: Any) -> None:
        with self._lock:
            self._new.append((request, client_address))
        with contextlib.suppress(OSError):
            self._wake_write.send(b"\0")

    def server_close(self) -> None:
        self._running = False
        with contextlib.suppress(OSError):
            self._wake_write.send(b"\0")
        self._gatherer.join(timeout=5)
        self._pool.shutdown(wait=False, cancel_futures=True)
        super().server_close()

    # ------------------------------------------------------------ the gathering thread
    def _gather(self) -> None:
        while self._running:
            now = time.monotonic()
            with self._lock:
                new, self._new = self._new, []
            for conn, client in new:
                self._wait_for(conn, client, now)
            oldest = next(iter(self._waiting.values()), None)
            timeout = max(0.0, min(1.0, oldest[1] - now)) if oldest else 1.0
            for key, _events in self._selector.select(timeout):
                if key.fileobj is self._wake_read:
                    with contextlib.suppress(OSError):
                        self._wake_read.recv(4096)
                    continue
                self._read_some(key.fileobj)  # type: ignore[arg-type]
            now = time.monotonic()
            for conn, (_client, deadline, _head) in list(self._waiting.items()):
                if deadline > now:
                    break  # (oldest first: the rest are later)
                self._drop(conn, idle=True)
            self._log_idle()
        for conn in list(self._waiting):
            self._drop(conn, idle=False)
        self._selector.close()
        self._wake_read.close()
        self._wake_write.close()

    def _wait_for(self, conn: socket.socket, client: Any, now: float) -> None:
        while len(self._waiting) >= self.max_waiting:
            self._drop(next(iter(self._waiting)), idle=True)
        try:
            conn.setblocking(False)
            self._selector.register(conn, selectors.EVENT_READ)
        except (OSError, ValueError):
            self.shutdown_request(conn)
            return
        self._waiting[conn] = (client, now + self.read_timeout, bytearray())

    def _read_some(self, conn: socket.socket) -> None:
        client, _deadline, head = self._waiting[conn]
        try:
            data = conn.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the client closed it
            self._drop(conn, idle=False)
            return
        head += data
        if len(head) > MAX_HEAD:
            self._selector.unregister(conn)
            del self._waiting[conn]
            self.log_refused(f"431 {client[0]} a request head of more than {MAX_HEAD:,} bytes")
            with contextlib.suppress(OSError):
                conn.sendall(b"HTTP/1.0 431 Request Header Fields Too Large\r\nContent-Length: 0\r\n\r\n")
            self.shutdown_request(conn)
            return
        if b"\r\n\r\n" in head or b"\n\n" in head:
            self._selector.unregister(conn)
            del self._waiting[conn]
            conn.setblocking(True)
            conn.settimeout(self.read_timeout)
            try:
                self._pool.submit(self._answer, conn, client, bytes(head))
            except RuntimeError:  # the pool was shut down: the server is closing
                self.shutdown_request(conn)

    def _drop(self, conn: socket.socket, idle: bool) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(conn)
        self._waiting.pop(conn, None)
        if idle:
            self.closed_idle += 1
            self._idle_unlogged += 1
        self.shutdown_request(conn)

    # ------------------------------------------------------------ a worker
    def _answer(self, conn: socket.socket, client: Any, head: bytes) -> None:
        try:
            self.finish_request((conn, head), client)  # type: ignore[arg-type]
        except Exception as error:
            self.log_refused(f"500 {client[0]} {type(error).__name__}")
        finally:
            self.shutdown_request(conn)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One line, never a traceback (the socketserver default prints one)."""
        error = sys.exc_info()[1]
        self.log_refused(f"500 {client_address[0]} {type(error).__name__}")

    # ------------------------------------------------------------ the log
    def log_refused(self, line: str) -> None:
        """Log one refused request in one bounded line, at most :data:`LOG_PER_MINUTE` a minute."""
        with self._lock:
            minute = int(time.monotonic() // 60)
            if minute != self._log_minute:
                if self._unlogged:
                    self._write(f"... and {self._unlogged:,} more refused requests in the last minute")
                self._log_minute, self._logged, self._unlogged = minute, 0, 0
            if self._logged >= LOG_PER_MINUTE:
                self._unlogged += 1
                return
            self._logged += 1
            self._write(cut(printable(line), LOG_LINE))

    def _log_idle(self) -> None:
        """One line a minute at most, counting the connections closed without a request since the last."""
        now = time.monotonic()
        if self._idle_unlogged and now >= self._idle_logged_at + 60:
            count, self._idle_unlogged, self._idle_logged_at = self._idle_unlogged, 0, now
            with self._lock:
                self._write(f"closed {count:,} connections that sent no whole request within {self.read_timeout:g} s")

    def _write(self, line: str) -> None:
        stream = self.log if self.log is not None else sys.stderr
        with contextlib.suppress(OSError, ValueError):
            stream.write(f"tartli.site: {line}\n")
            stream.flush()


def make_server(
    folder: Path,
    port: int = 8000,
    host: str = "127.0.0.1",
    sent: list[int] | None = None,
    requested: list[str] | None = None,
    **options: Any,
) -> SiteServer:
    """A static file server for a built site (port 0: any free port); ``sent`` collects the bytes
    on the wire of every response, ``requested`` the paths asked for; ``options`` are
    :class:`SiteServer`'s (``read_timeout``, ``workers``, ``max_waiting``, ``log``)."""
    handler_class = type("_SiteHandler", (_Handler,), {"sent": sent, "requested": requested})
    handler = functools.partial(handler_class, directory=str(folder))
    return SiteServer((host, port), handler, **options)


def serve_in_thread(
    folder: Path,
    port: int = 0,
    sent: list[int] | None = None,
    requested: list[str] | None = None,
    **options: Any,
) -> tuple[SiteServer, str]:
    """Serve ``folder`` in a background thread; the server and its address."""
    server = make_server(folder, port, sent=sent, requested=requested, **options)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, bound = server.server_address[:2]
    return server, f"http://{host!s}:{bound}/"
