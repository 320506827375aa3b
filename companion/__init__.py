"""Chocolatl companion: a table assistant that scores the board game Chocolatl."""

__version__ = "0.1.0"
