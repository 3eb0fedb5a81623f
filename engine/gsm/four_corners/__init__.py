"""Game, Set, Match! - Four Corners: two players race to empty their hands along crossing lines."""
