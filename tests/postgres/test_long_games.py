"""tests/storage/test_long_games.py against PostgreSQL."""

from __future__ import annotations

import tests.storage.test_long_games as shared

from .support import backend_neutral

globals().update(backend_neutral(shared))
