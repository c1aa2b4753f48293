"""Render stage: Pieces and Sheets drawn onto ReportLab canvases, PDFs and PNGs written."""
