"""The course's web server: Voilà with what a classroom server needs (``python -m tartli.server``).

:mod:`tartli.server.app` holds the small subclasses; ``voila.json`` beside it the settings, and
``jupyter/voila/templates/tartli`` the page template. ``tartli course`` starts it.
"""

DUELS_ENV = "TARTLI_DUELS"
"""Set (to ``1``) in the environment of the course's server, and so of every kernel it starts: tables for two
browsers exist here (issue 38; Binder and the static edition have none)."""
