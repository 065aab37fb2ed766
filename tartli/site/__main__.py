"""The command line of the static edition: ``python -m tartli.site build``, ``serve`` and ``archive``."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path

from tartli.site.archive import archive
from tartli.site.builder import BuildError, build, size_of
from tartli.site.serve import make_server


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tartli.site", description="The course as a static site.")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the site (needs PyPI and npm; run from a clone)")
    b.add_argument("--out", type=Path, default=Path("_site"), help="where the site goes (default _site)")
    b.add_argument(
        "--cache", type=Path, default=Path(".site-cache"), help="downloads and build tools (default .site-cache)"
    )
    s = sub.add_parser("serve", help="serve a built site on 127.0.0.1")
    s.add_argument("folder", type=Path, nargs="?", default=Path("_site"))
    s.add_argument("--port", type=int, default=8000)
    a = sub.add_parser("archive", help="pack a built site into one zip, the offline edition (Python alone opens it)")
    a.add_argument("folder", type=Path, nargs="?", default=Path("_site"))
    a.add_argument("-o", "--out", type=Path, default=Path("tartli-offline.zip"), help="default tartli-offline.zip")
    args = parser.parse_args(argv)
    if args.command == "archive":
        try:
            made = archive(args.folder, args.out)
        except (BuildError, OSError) as err:
            print(f"tartli.site: {err}", file=sys.stderr)
            return 2
        print(f"Packed the offline edition into {made} ({made.stat().st_size / 2**20:.1f} MiB).")
        return 0
    if args.command == "build":
        try:
            out = build(args.out, args.cache)
        except BuildError as err:
            print(f"tartli.site: {err}", file=sys.stderr)
            return 2
        print(f"Built the static site in {out} ({size_of(out) / 2**20:.1f} MiB).")
        print(f"Try it: python3 -m tartli.site serve {args.out}")
        return 0
    if not (args.folder / "index.html").exists():
        print(f"tartli.site: {args.folder} holds no built site (python3 -m tartli.site build)", file=sys.stderr)
        return 2
    server = make_server(args.folder, args.port)
    host, port = server.server_address[:2]
    print(f"Tartli static site: open http://{host!s}:{port}/  (Ctrl+C stops it)", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
