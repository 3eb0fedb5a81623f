"""A room: one table's people, settings and game, changed by its one task."""
