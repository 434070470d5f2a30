"""What the Models page's tests share: a page over the generated libraries' data."""

import pytest

from components.web.gradio.pages.models import ModelsPage
from tests.helpers import served


@pytest.fixture
def tab(libraries):
    snapshot, rankings = libraries
    return ModelsPage(served(snapshot, rankings))
