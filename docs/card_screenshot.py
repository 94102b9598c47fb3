"""Render a card's `card.html` to the PNG the root README shows (`docs/card_example.png`), in headless Chromium.

A script rather than a recipe because the screenshot is committed: whenever the card's layout changes it must be
remade the same way. Chromium's `--screenshot` shoots a fixed window, so the page is shot in a window taller than any
card, cropped to its content, and reduced to a 64-colour palette without dithering (text and flat plots look the
same; the file is about a third the size, small enough to commit).

    python docs/card_screenshot.py docs/card_example/card.html docs/card_example.png
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageChops

WIDTH = 1100
"""Wide enough for the card's tables, narrow enough that the README's image stays readable when scaled down."""
TALL = 12_000
"""The window's height: taller than the card of five suites (about 4,900 px), so the shot holds the whole page."""
MARGIN = 24
COLOURS = 64


def shoot(html: Path, png: Path) -> tuple[int, int]:
    """Write the cropped, palette PNG of `html` to `png`; return its size in pixels."""
    browser = shutil.which("chromium")
    if browser is None:
        sys.exit("chromium is not installed: apt-get install -y chromium (or `make chromium` as root)")
    with tempfile.TemporaryDirectory() as scratch:
        raw = Path(scratch) / "raw.png"
        command = [
            browser,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            f"--user-data-dir={scratch}/profile",
            f"--screenshot={raw}",
            f"--window-size={WIDTH},{TALL}",
            html.resolve().as_uri(),
        ]
        subprocess.run(command, check=True, capture_output=True, timeout=120)
        image = Image.open(raw).convert("RGB")
    background = Image.new("RGB", image.size, image.getpixel((image.width - 1, image.height - 1)))  # type: ignore[arg-type]
    box = ImageChops.difference(image, background).getbbox()
    if box is None:
        sys.exit(f"{html}: the page painted nothing")
    if box[3] >= image.height - 1:
        sys.exit(f"{html}: the page is taller than the {TALL} px window; raise TALL")
    cropped = image.crop((0, 0, image.width, min(image.height, box[3] + MARGIN)))
    palette = cropped.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette.save(png, optimize=True)
    return palette.size


def main() -> None:
    """The command line: `python docs/card_screenshot.py HTML PNG` (the README in this folder shows it in use)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", type=Path, help="the card's card.html")
    parser.add_argument("png", type=Path, help="the PNG to write")
    args = parser.parse_args()
    width, height = shoot(args.html, args.png)
    print(f"{args.png}: {width} x {height} px, {args.png.stat().st_size / 1000:.0f} KB")


if __name__ == "__main__":
    main()
