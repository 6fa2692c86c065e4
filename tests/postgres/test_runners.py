"""tests/storage/test_runners.py against PostgreSQL: processes adopt a dead process's games there too."""

from __future__ import annotations

import tests.storage.test_runners as shared

from .support import backend_neutral

globals().update(backend_neutral(shared))
