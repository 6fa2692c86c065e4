"""tests/storage/test_restore.py against PostgreSQL: games survive restarts of the bot there too."""

from __future__ import annotations

import tests.storage.test_restore as shared

from .support import backend_neutral

globals().update(backend_neutral(shared))
