"""Every test process is kept from the user's own bot: no setting of theirs, no `.env` of the clone's,
no connection to Discord (`tests/_isolation.py`). A test that tries fails."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests import _isolation

# At import, before any test module: what the tests' bot processes inherit is cleaned too.
_isolation.isolate(os.environ)


@pytest.fixture(autouse=True)
def _kept_from_discord() -> Iterator[None]:
    yield
    refused, _isolation.refused[:] = list(_isolation.refused), []
    assert not refused, f"the test tried to reach the user's own bot: {'; '.join(refused)}"
