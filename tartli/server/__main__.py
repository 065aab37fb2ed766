"""``python -m tartli.server NOTEBOOK_DIR [Voilà options]``: the course's Voilà server."""

from tartli.server.app import main

if __name__ == "__main__":
    main()
