"""The T-Shirt Game: match slogans to T-shirts; the judge's favourite wins Hot or Not cards."""
