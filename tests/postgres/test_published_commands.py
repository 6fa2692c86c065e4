"""tests/storage/test_published_commands.py against PostgreSQL."""

from __future__ import annotations

import tests.storage.test_published_commands as shared

from .support import backend_neutral

globals().update(backend_neutral(shared))
