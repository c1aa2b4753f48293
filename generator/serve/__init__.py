"""`pnp serve`: a live preview of a game in the browser, rebuilt as its files change."""
