"""The course's web server: Voilà with what a classroom server needs (``python -m tartli.server``).

:mod:`tartli.server.app` holds the small subclasses; ``voila.json`` beside it the settings, and
``jupyter/voila/templates/tartli`` the page template. ``tartli course`` starts it.
"""
