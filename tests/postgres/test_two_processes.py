"""tests/storage/test_two_processes.py against PostgreSQL: a process behind catches up there too."""

from __future__ import annotations

import tests.storage.test_two_processes as shared

from .support import backend_neutral

globals().update(backend_neutral(shared))
