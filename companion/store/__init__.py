"""Storage: the one owner of the server's SQLite file (schema, migrations, every query), the
data directory it lives in, and the documents built from it (game logs, results).

Nothing outside this package opens a connection or writes SQL (DESIGN.md "Server").
"""

from companion.store.database import DamagedRow, Statements, Store, token_hash

__all__ = ["DamagedRow", "Statements", "Store", "token_hash"]
