"""The café: every table of one server, and what leaves them when a game is over (the webhook
outbox, the history and leaderboard). It sits above the tables and below the web layer."""

from companion.cafe.cafe import Cafe, ConfigError, TableConfig

__all__ = ["Cafe", "ConfigError", "TableConfig"]
