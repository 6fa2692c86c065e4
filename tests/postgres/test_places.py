"""tests/storage/test_places.py against PostgreSQL: a game whose place is gone ends for good there too."""

from __future__ import annotations

import tests.storage.test_places as shared

from .support import backend_neutral

globals().update(backend_neutral(shared))
