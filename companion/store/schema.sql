-- The whole database of a companion server, at schema version 4 (PRAGMA user_version).
-- Loaded by companion/store/migrations.py; every statement is IF NOT EXISTS so it can be run
-- over a database that has been migrated. A change here needs a numbered migration there.

-- Tables of the café: their secrets, settings and the game they are playing.
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    join_secret TEXT NOT NULL,
    host_token TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    current_game INTEGER
);

-- Seats of each table; seat tokens are stored hashed.
CREATE TABLE IF NOT EXISTS seats (
    table_name TEXT NOT NULL,
    seat TEXT NOT NULL,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    colour TEXT NOT NULL,
    token_hash TEXT,
    state TEXT NOT NULL,
    PRIMARY KEY (table_name, seat)
);

-- Games: the SCENARIO.md setup and what the server needs to resume one. ``ended`` is when
-- the game went over (its final command, or the host's "End game"), NULL while playing;
-- ``ended_by`` who ended it early ("host" or "cafe"), NULL for a game that was not ended
-- (or was, before version 5: then the host is named, as that release did).
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_name TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    document TEXT NOT NULL,
    seats TEXT NOT NULL,
    decks TEXT NOT NULL,
    dice TEXT NOT NULL,
    ended REAL,
    ended_by TEXT
);

-- Each game's command log, in order; ``undone`` commands stay for the record.
CREATE TABLE IF NOT EXISTS commands (
    game_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    command TEXT NOT NULL,
    source TEXT NOT NULL,
    cmd_id TEXT,
    undone INTEGER NOT NULL DEFAULT 0,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE UNIQUE INDEX IF NOT EXISTS commands_cmd_id ON commands (game_id, source, cmd_id)
    WHERE cmd_id IS NOT NULL;

-- A phone that took a seat over during a game (a released seat claimed again): from command
-- ``n`` on, the seat's moves from a phone are this name's, in this colour. The game's
-- ``seats`` hold who sat there at the start; results credit each holder (store/results.py).
CREATE TABLE IF NOT EXISTS seat_takeovers (
    game_id INTEGER NOT NULL,
    seat TEXT NOT NULL,
    n INTEGER NOT NULL,
    name TEXT NOT NULL,
    colour TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS seat_takeovers_game ON seat_takeovers (game_id, n);

-- Café-wide values: the admin token, since when results are sent to webhooks.
CREATE TABLE IF NOT EXISTS cafe_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- The result document of every game that is over (history, leaderboard, webhook body).
CREATE TABLE IF NOT EXISTS results (
    game_id INTEGER PRIMARY KEY,
    table_name TEXT NOT NULL,
    status TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL NOT NULL,
    result TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS results_ended ON results (ended);

-- Webhook deliveries of the results, one row per game and URL.
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL,
    url TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at REAL NOT NULL,
    last_error TEXT,
    delivered_at REAL,
    UNIQUE (game_id, url)
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (state, next_at);

-- The review of a game that is over (companion/cafe/reviews.py): every decision rated by the
-- companion players' search, as players/review.py's JSON document, with the seed it used.
CREATE TABLE IF NOT EXISTS reviews (
    game_id INTEGER PRIMARY KEY,
    seed INTEGER NOT NULL,
    created REAL NOT NULL,
    document TEXT NOT NULL
);

-- Games that are over and wait for their review, reviewed one at a time in game order
-- (companion/cafe/reviews.py). A row leaves with its stored review (one transaction), so a
-- review cut off by a restart or a power cut is done again; a failing one keeps its error.
CREATE TABLE IF NOT EXISTS review_queue (
    game_id INTEGER PRIMARY KEY,
    queued REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT
);
