"""What the Models page's tests share: a page over the generated libraries' data."""

import pytest

from components.web.pages.models import ModelsTab
from tests.helpers import served


@pytest.fixture
def tab(libraries):
    snapshot, rankings = libraries
    return ModelsTab(served(snapshot, rankings))
