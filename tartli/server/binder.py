"""The course on Binder: Voilà's Jupyter server extension with the course's own settings.

On Binder (or any Jupyter server with Voilà installed) the pages are not served by the course's
server (:mod:`tartli.server.app`) but by Voilà's server extension, at
``<base_url>voila/render/notebooks/NN.ipynb``. That extension reads none of ``voila.json``'s
server settings and ignores ``?voila-template=``; left alone it renders Voilà's default template
(stylesheets and MathJax from public CDNs), keeps tracebacks at Voilà's defaults, and its pages'
"shut my kernel down" beacon gets 403 (no ``_xsrf`` cookie), so kernels of visitors who left live on.

``binder/start`` puts ``binder/`` on ``JUPYTER_CONFIG_PATH``; its ``jupyter_server_config.py``
loads :func:`server_config`, which carries over from ``tartli/server/voila.json``:

* ``VoilaConfiguration``: the ``tartli`` template (found on ``JUPYTER_PATH``, which
  ``binder/start`` also sets), the theme, sources stripped, tracebacks hidden, overrides off;
* ``VoilaExecutor``: the same timeouts;
* ``MappingKernelManager``: the culling of idle kernels with no connection;
* the kernel manager: the Jupyter server's own, with a kernel process's own output (what it writes before
  ipykernel takes its output over: a warning at import, a crash at start) sent to the kernel log below, as
  on the course's server (:class:`tartli.server.kernels.LoggedKernelManager`), not to the terminal whole;

and adds no MathJax address (Voilà's default for the extension is a CDN; without one the pages
typeset with the MathJax bundled in Voilà's own scripts, as on the course's server), and this
module as a server extension, which:

* serves the pages with :class:`tartli.server.app.CookieVoilaHandler` (sets the ``_xsrf`` cookie),
  so that leaving a page shuts its kernel down;
* checks kernel websocket frames (:class:`tartli.server.app.FrameCheckedConnection`);
* sends the kernels' error log to a file followed into the server's log
  (:mod:`tartli.widgets.kernel_log`), so a visitor sees a short message, not a traceback;
* bounds the server's log as the course's server does (:func:`tartli.server.logs.quiet_server_log`):
  every line short and escaped, a traceback one line, no folder of the machine named, a flood summed up.

Not carried over: the address and port (Binder's), the pre-started kernels (the extension
uses the Jupyter server's own kernel manager, which has no pool; a Binder launch is one learner's
own server anyway), the kernel cap and the allowed hosts (Binder limits each launch's memory and
proxies it under its own address).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from traitlets.config import Config

from tartli import app

EXTENSION = "tartli.server.binder"
NOT_FOR_THE_EXTENSION = ("preheat_kernel", "default_pool_size")
"""VoilaConfiguration settings that only Voilà's own server uses (its kernel pool)."""


def server_config() -> Config:
    """The Jupyter server configuration that makes Voilà's extension serve the course as ``tartli`` does.

    >>> c = server_config()
    >>> c.VoilaConfiguration.template, c.VoilaConfiguration.show_tracebacks, c.MappingKernelManager.cull_idle_timeout
    ('tartli', False, 180)
    """
    settings = app.settings()
    c = Config()
    c.VoilaConfiguration = Config(
        {k: v for k, v in settings["VoilaConfiguration"].items() if k not in NOT_FOR_THE_EXTENSION}
    )
    c.VoilaExecutor = Config(settings["VoilaExecutor"])
    c.MappingKernelManager = Config(settings["MappingKernelManager"])
    # The Jupyter server's own kernel manager, but a kernel's own output goes to the kernel log (named by
    # the extension, below) as on the course's server (a string: imported when the server makes it).
    c.ServerApp.kernel_manager_class = "tartli.server.kernels.LoggedKernelManager"
    # Merged into what other configuration sets (traitlets' lazy update), not replacing it.
    c.ServerApp.tornado_settings.update({"mathjax_url": None, "mathjax_config": None})
    c.ServerApp.jpserver_extensions.update({EXTENSION: True})
    return c


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": EXTENSION}]


def _swap_page_handler(router: Any, handler: type) -> int:
    """Replace Voilà's page handler by ``handler`` in the rules of ``router`` (and of its sub-routers)."""
    from voila.tornado.handler import TornadoVoilaHandler

    swapped = 0
    for rule in getattr(router, "rules", []):
        if rule.target is TornadoVoilaHandler:
            rule.target = handler
            swapped += 1
        elif hasattr(rule.target, "rules"):
            swapped += _swap_page_handler(rule.target, handler)
    return swapped


def _page_rule(server_app: Any, handler: type) -> tuple[str, type, dict[str, Any]]:
    """The rule Voilà's extension adds for ``voila/render/...`` (built as voila.server_extension builds it),
    with ``handler``."""
    from jupyter_server.utils import url_path_join
    from voila.configuration import VoilaConfiguration
    from voila.paths import collect_template_paths
    from voila.server_extension import load_config_file

    voila_configuration = VoilaConfiguration(parent=server_app)
    local_config = load_config_file()
    if local_config is not None:
        voila_configuration.update_config(local_config)
    template_paths = collect_template_paths(["voila", "nbconvert"], voila_configuration.template)
    kwargs = {"config": server_app.config, "template_paths": template_paths, "voila_configuration": voila_configuration}
    return url_path_join(server_app.web_app.settings["base_url"], "/voila/render/(.*)"), handler, kwargs


def _load_jupyter_server_extension(server_app: Any) -> None:
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

    from tartli.server.app import CookieVoilaHandler, FrameCheckedConnection
    from tartli.server.kernels import KERNEL_LOG_ENV
    from tartli.server.logs import follow_kernel_log, quiet_server_log

    web_app = server_app.web_app
    # Read per connection from the settings (set here rather than in server_config, which would import
    # Voilà, and its warning filters, before the other extensions); a non-default class is left alone.
    if web_app.settings.get("kernel_websocket_connection_class") is ZMQChannelsWebsocketConnection:
        web_app.settings["kernel_websocket_connection_class"] = FrameCheckedConnection
    if _swap_page_handler(web_app.default_router, CookieVoilaHandler):
        server_app.log.info("tartli: Voilà's pages set the _xsrf cookie")
    else:
        # Extensions load in alphabetical order, so Voilà's comes after this one: a rule added now
        # is found before the one Voilà adds for the same address (tornado tries rules in order).
        web_app.add_handlers(".*$", [_page_rule(server_app, CookieVoilaHandler)])
        server_app.log.info("tartli: Voilà's pages are served with the course's handler (it sets the _xsrf cookie)")
    path = os.environ.get(KERNEL_LOG_ENV) or str(Path(tempfile.gettempdir()) / f"tartli-kernels-{server_app.port}.log")
    os.environ[KERNEL_LOG_ENV] = path  # the kernels inherit the server's environment
    follow_kernel_log(Path(path), server_app.log)
    server_app.log.info("tartli: kernel errors are logged to %s and followed here", path)
    # every line of the log bounded, one line a record, no path of the machine (as on the course's server)
    folders = [str(server_app.root_dir), str(server_app.runtime_dir), str(Path(path).parent)]
    quiet_server_log(server_app.log, folders)
