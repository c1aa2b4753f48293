"""Imposition: placing faces on pages — n-up grids with marks and duplex backs, one per page."""
