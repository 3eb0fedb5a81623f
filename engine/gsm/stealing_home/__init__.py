"""Game, Set, Match! - Stealing Home: race to spot where one of two turned cards fits the grid."""
