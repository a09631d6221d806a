"""``python3 -m omen_search …`` is the ``omen-search`` command."""

import sys

from omen_search.cli import main

sys.exit(main())
