"""Components: resolved content items turned into drawable faces (Pieces), in millimetres."""
