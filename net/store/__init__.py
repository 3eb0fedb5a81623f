"""The host's one SQLite database: rooms, commands, finished games, standings."""
