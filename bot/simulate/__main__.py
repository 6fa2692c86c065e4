"""``python -m bot.simulate``: see `bot.simulate.run`."""

import sys

from .run import main

sys.exit(main())
