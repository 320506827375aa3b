"""Typed refusals. Every one is a ``ValueError`` whose message a player can read."""

from __future__ import annotations


class IllegalCommand(ValueError):
    """A command the engine refuses; the state it was applied to is unchanged."""


class MalformedCommand(IllegalCommand):
    """The command is not shaped like any command (missing field, wrong type, unknown type)."""


class NotAwaited(IllegalCommand):
    """The command is well formed but the engine is not waiting for it now (or not from them)."""


class RuleViolation(IllegalCommand):
    """The command breaks a rule (card not in the deck, too many dice, bad die value, ...)."""


class InvalidSetup(ValueError):
    """A game cannot be set up from these players, stack or profile."""


class ReplayError(ValueError):
    """A game log's command was refused; carries its 0-based ``index`` and the ``reason``."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"command {index}: {reason}")
        self.index = index
        self.reason = reason
