"""PDF pages to PNG images with pypdfium2, at an exact pixel size."""

from __future__ import annotations

import concurrent.futures
import io
from pathlib import Path
from typing import Callable, Iterator

import pypdfium2 as pdfium

from generator.files import write_atomically
from generator.workers import stop_workers, worker_pool

# Below this many pages a worker process costs more to start than it saves.
PAGES_PER_WORKER = 40


def pages_png(pdf_bytes: bytes, indices: list[int], dpi: float,
              sizes: dict[int, tuple[int, int]] | None = None) -> Iterator[tuple[int, bytes]]:
    """Several pages of one PDF (opened once), each as (index, PNG bytes) as soon as it is made:
    a 10,000-card deck's faces are never all in memory at once."""
    document = pdfium.PdfDocument(pdf_bytes)
    try:
        for index in indices:
            yield index, _page_png(document, index, dpi, (sizes or {}).get(index))
    finally:
        document.close()


def write_pages_png(pdf_bytes: bytes, files: dict[int, list[Path]], dpi: float,
                    sizes: dict[int, tuple[int, int]] | None = None, jobs: int = 1,
                    on_pages: Callable[[int], None] | None = None) -> None:
    """Render each page index once and write it to every file listed for it.

    A deck of all-different cards has a PNG to render per card (~25 ms each, most of it
    PNG compression): with jobs > 1 the pages go to worker processes in small batches
    (each worker opens the PDF once; pdfium is not thread-safe). `on_pages(n)` is told
    as pages are done. `sizes` gives a page's exact pixel size (each page may differ: a
    deck of mini cards beside poker cards); other pages are rendered at `dpi`.
    """
    indices = sorted(files)
    workers = max(1, min(jobs, len(indices) // PAGES_PER_WORKER))
    if workers == 1:
        for index, image in pages_png(pdf_bytes, indices, dpi, sizes):
            for path in files[index]:
                write_atomically(path, image)
            if on_pages:
                on_pages(1)
        return
    batch = max(1, PAGES_PER_WORKER // 4)
    batches = [{index: files[index] for index in indices[start:start + batch]}
               for start in range(0, len(indices), batch)]
    # workers that die with this process: a killed build leaves none drawing behind it
    with worker_pool(workers, initializer=_WorkerDocument.open, initargs=(pdf_bytes,)) as pool:
        futures = [pool.submit(_WorkerDocument.write_batch, share, dpi,
                               {index: sizes[index] for index in share if index in sizes} if sizes else None)
                   for share in batches]
        try:
            for finished in concurrent.futures.as_completed(futures):
                done = finished.result()     # a worker's error is raised here
                if on_pages:
                    on_pages(done)
        except BaseException:
            stop_workers(pool)       # what they draw goes into the staging folder, thrown away
            raise


class _WorkerDocument:
    """The PDF a worker process draws pages of: opened once when the worker starts (the initializer),
    held by this class for the worker's life (a worker is a process of its own: one document each)."""

    document: pdfium.PdfDocument | None = None

    @classmethod
    def open(cls, pdf_bytes: bytes) -> None:
        cls.document = pdfium.PdfDocument(pdf_bytes)

    @classmethod
    def write_batch(cls, files: dict[int, list[Path]], dpi: float, sizes: dict[int, tuple[int, int]] | None) -> int:
        """The pages' PNG files, written by the worker; how many pages it drew."""
        document = cls.document
        assert document is not None, "a worker draws after its initializer opened the PDF"
        for index in sorted(files):
            image = _page_png(document, index, dpi, (sizes or {}).get(index))
            for path in files[index]:
                write_atomically(path, image)
        return len(files)


def _page_png(document, index: int, dpi: float, size: tuple[int, int] | None) -> bytes:
    page = document[index]
    try:
        width_pt, _ = page.get_size()
        # pdfium rounds a fractional pixel up: aim a hair under the width so it lands on it
        scale = size[0] * (1 - 1e-9) / width_pt if size else dpi / 72.0
        bitmap = page.render(scale=scale)
        image = bitmap.to_pil().convert("RGB")
        bitmap.close()
    finally:
        page.close()
    if size is not None and image.size != size:
        if abs(image.width - size[0]) <= 1 and abs(image.height - size[1]) <= 1 \
                and image.width >= size[0] and image.height >= size[1]:
            image = image.crop((0, 0, *size))   # a rounding pixel of bleed, not worth resampling
        else:
            image = image.resize(size)          # a shop size of another aspect (under 1.3 % off)
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(dpi, dpi))
    return out.getvalue()
