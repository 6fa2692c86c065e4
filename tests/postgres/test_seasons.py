"""tests/storage/test_seasons.py against PostgreSQL."""

from __future__ import annotations

import tests.storage.test_seasons as shared

from .support import backend_neutral

globals().update(backend_neutral(shared))
