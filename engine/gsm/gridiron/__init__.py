"""Game, Set, Match! - Gridiron: take turns placing one card; draw only when nothing fits."""
