"""tests/storage/test_season_turns.py against PostgreSQL: two processes announce a season's end once there too."""

from __future__ import annotations

import tests.storage.test_season_turns as shared

from .support import backend_neutral

globals().update(backend_neutral(shared))
