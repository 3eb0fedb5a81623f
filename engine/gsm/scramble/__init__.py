"""Game, Set, Match! - Scramble: all arrange their own seven cards; first correct "Game!" wins."""
