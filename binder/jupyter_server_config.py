# The Jupyter server Binder starts reads this file: binder/start puts binder/ on JUPYTER_CONFIG_PATH.
# It gives Voilà's server extension the course's settings from tartli/server/voila.json (the
# "tartli" template, tracebacks hidden, the executor's timeouts, culling of idle kernels) and turns
# on the course's extension, whose page handler sets the _xsrf cookie so that leaving a page shuts
# its kernel down. The details are in tartli/server/binder.py.
from tartli.server.binder import server_config

c = get_config()  # noqa: F821  (the config loader defines get_config)
c.merge(server_config())
