import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.path.join(ROOT, "examples")


@pytest.fixture
def example():
    import hawk

    def read(name):
        return hawk.parse_file(os.path.join(EXAMPLES, name + ".hir"))
    return read
