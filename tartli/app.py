"""``tartli`` (or ``tartli course``): serve the course with Voilà on 127.0.0.1 and print its address.

The Voilà settings are the project's own, in ``tartli/server/voila.json``: the
loopback address, sources stripped, tracebacks hidden (a learner sees a short
message), pre-started kernels for the index, the first lesson and the table, and the kernels of visitors who
left (no open connection) culled after three idle minutes, so they do not pile up.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from tartli.course import PAGES, notebooks_dir

CONFIG_DIR = Path(__file__).resolve().parent / "server"
DATA_DIR = CONFIG_DIR / "jupyter"
"""Holds the course's Voilà template (``voila/templates/tartli``), found through JUPYTER_PATH."""


def environment() -> dict[str, str]:
    """The process environment with the course's Jupyter data folder first on JUPYTER_PATH."""
    env = dict(os.environ)
    paths = [str(DATA_DIR)] + [p for p in env.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    env["JUPYTER_PATH"] = os.pathsep.join(paths)
    return env


def settings() -> dict[str, dict[str, object]]:
    """The Voilà configuration shipped with the package."""
    data: dict[str, dict[str, object]] = json.loads((CONFIG_DIR / "voila.json").read_text(encoding="utf-8"))
    return data


def voila_command(port: int | None = None, ip: str | None = None, extra: Sequence[str] = ()) -> list[str]:
    """The command that serves the course (the settings file, with an optional other port or address,
    and ``extra`` options for the server, e.g. ``--TartliVoila.allowed_hosts=...``)."""
    cmd = [
        sys.executable,
        "-m",
        "tartli.server",
        str(notebooks_dir()),
        "--Voila.config_file_paths",
        str(CONFIG_DIR),
        f"--TartliVoila.announce={PAGES[0].file}",
    ]
    if port is not None:
        cmd.append(f"--port={port}")
    if ip is not None:
        cmd.append(f"--Voila.ip={ip}")
    cmd.extend(extra)
    return cmd


def start_url(port: int | None = None, ip: str | None = None) -> str:
    """The address of the lesson index."""
    conf = settings()["Voila"]
    host = ip or str(conf.get("ip", "127.0.0.1"))
    return f"http://{host}:{port or conf.get('port', 8866)}/voila/render/{PAGES[0].file}"


def main(port: int | None = None, ip: str | None = None, extra: Sequence[str] = ()) -> int:
    """Serve the course until interrupted (Ctrl+C); ``extra`` options go to the server."""
    if not notebooks_dir().is_dir():
        print(f"tartli: the lessons are missing from {notebooks_dir()}", file=sys.stderr)
        return 2
    print("Tartli course: starting (the first pages are being prepared) ...", flush=True)
    command = voila_command(port, ip, extra)
    if hasattr(os, "execve") and os.name == "posix":
        # Become the Voilà server, so that stopping this process stops the server (no orphan).
        os.execve(command[0], command, environment())
    try:  # pragma: no cover - platforms without exec
        return subprocess.call(command, env=environment())
    except KeyboardInterrupt:  # pragma: no cover
        return 0
