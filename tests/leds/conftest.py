"""Fixtures for the LED tests."""

from __future__ import annotations

import pytest

from companion.leds.layout import Layout, layout_from_dict

from .builders import small_dict


@pytest.fixture
def small() -> Layout:
    """The tiny board of ``builders.SMALL``."""
    return layout_from_dict(small_dict())
