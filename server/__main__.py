"""``python -m toolcast.server [--stdio]``: the language server, with the same options as ``toolcast serve``."""

import sys

from .cli import main

sys.exit(main(["serve", *sys.argv[1:]]))
