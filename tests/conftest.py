"""The whole suite's settings.

Having this file in ``tests/`` (no ``__init__.py``) puts ``tests/`` on ``sys.path``, so every
test imports the shared helpers (``waiting.wait_for``) by their module name.
"""
