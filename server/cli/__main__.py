"""``python -m toolcast.server.cli``: the same as the ``toolcast`` script."""

import sys

from . import main

sys.exit(main())
