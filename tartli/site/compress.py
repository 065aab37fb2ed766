"""Precompressed copies of a built site's large files: ``NAME.gz`` and ``NAME.br`` beside ``NAME``.

A static host sends files as they are on disk unless it compresses them itself, and most
compress only some types (GitHub Pages: text, scripts and WebAssembly; none compresses the
snapshot's ``.bin`` files). The build therefore writes, beside every file of at least
:data:`MIN_SIZE` bytes that is not already compressed, a gzip copy (Python's :mod:`gzip`, level 9,
no time stamp, so that two builds give the same bytes) and a brotli copy (Node.js's own zlib,
``files/compress.mjs``, quality 11), each kept only if it saves at least :data:`MIN_SAVING` of the
file. ``python -m tartli.site serve`` sends the smallest copy the browser accepts, with its
``Content-Encoding`` (:mod:`tartli.site.serve`); docs/teachers/hosting.md says how to make nginx, Apache or a CDN
do the same.
"""

from __future__ import annotations

import gzip
import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ALREADY_COMPRESSED", "ENCODINGS", "MIN_SAVING", "MIN_SIZE", "Summary", "candidates", "precompress"]

MIN_SIZE = 1024
"""Files smaller than this (bytes) get no copies: compressing them saves less than a network packet."""

MIN_SAVING = 0.1
"""A copy is kept only if it is at least this much smaller than the file (a tenth)."""

ALREADY_COMPRESSED = frozenset(
    {".gz", ".br", ".zst", ".zip", ".whl", ".tgz", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".woff", ".woff2"}
)
"""Suffixes of files that are compressed already (a wheel and Pyodide's standard library are zips)."""

ENCODINGS = {"br": ".br", "gzip": ".gz"}
"""The content codings the site has copies for, best first, and the suffix of each copy."""

_COMPRESS_JS = Path(__file__).resolve().parent / "files" / "compress.mjs"


@dataclass
class Summary:
    """What :func:`precompress` wrote: per coding, the bytes of the files that have a copy and of the copies."""

    files: int = 0
    plain: int = 0
    copies: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        sizes = ", ".join(f"{name} {size / 2**20:.1f} MiB" for name, size in self.copies.items())
        return f"{self.files} files of {self.plain / 2**20:.1f} MiB compressed ({sizes})"


def candidates(site: Path) -> list[Path]:
    """The files of ``site`` that get compressed copies (before the ratio is known), sorted."""
    return sorted(
        p
        for p in site.rglob("*")
        if p.is_file() and p.suffix.lower() not in ALREADY_COMPRESSED and p.stat().st_size >= MIN_SIZE
    )


def _gzip(path: Path) -> int | None:
    data = path.read_bytes()
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    if len(packed) > len(data) * (1 - MIN_SAVING):
        return None
    path.with_name(path.name + ".gz").write_bytes(packed)
    return len(packed)


def precompress(site: Path, node: str | None) -> Summary:
    """Write the ``.gz`` copies and, with ``node`` (the Node.js executable), the ``.br`` copies."""
    summary = Summary(copies={"gzip": 0})
    compressible = []
    for path in candidates(site):
        size = _gzip(path)
        if size is not None:
            compressible.append(path)
            summary.files += 1
            summary.plain += path.stat().st_size
            summary.copies["gzip"] += size
    if node is not None and compressible:
        result = subprocess.run(
            [node, str(_COMPRESS_JS), str(MIN_SAVING)],
            input=json.dumps([str(p) for p in compressible]),
            capture_output=True,
            text=True,
            check=True,
        )
        summary.copies["br"] = sum(json.loads(result.stdout).values())
    return summary
