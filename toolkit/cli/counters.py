"""``hexforge counters GAME``: counter images (75 px and print DPI) and printable PDF sheets."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from ..io import default_game, load_game
from ..render.counter_layouts import resolve_layout
from ..render.sheets import (PAPERS, PIECE_PX, SheetSpec, parse_offset, parse_size, plan_pages, write_piece_images,
                             write_sheets)


@click.command("counters")
@click.argument("game", required=False)
@click.option("--size", "size", default=None,
              help='Counter size in inches: 1/2, 9/16, 5/8, 3/4, 1, or any such as 0.6 or 16mm '
                   '(default: the game\'s size).')
@click.option("--paper", type=click.Choice(sorted(PAPERS)), multiple=True,
              help="Paper for the sheets; repeat for several (default: a4 and letter).")
@click.option("--dpi", type=int, default=300, show_default=True, help="Print resolution of sheets and print PNGs.")
@click.option("--bleed", "bleed", type=float, default=0.0625, show_default=True,
              help="Art extended past each cut line, in inches.")
@click.option("--margin", "margin", type=float, default=0.5, show_default=True, help="Page margins in inches.")
@click.option("--duplex-offset", "offset", default="0,0", show_default=True,
              help="Shift of the back pages X,Y in inches, as read from the calibration page.")
@click.option("--simplex", is_flag=True, help="Fronts only: no back pages.")
@click.option("--no-crop-marks", is_flag=True, help="Leave out the crop marks.")
@click.option("--calibration", is_flag=True, help="Start the PDF with a duplex calibration page pair.")
@click.option("--copies", type=int, default=1, show_default=True,
              help="Sets of counters to print: each counter appears copies x its count in the box.")
@click.option("--page-per-side", is_flag=True, help="Start each side's counters on a new sheet.")
@click.option("--layout", "layout", default=None,
              help="Counter layout to draw with instead of the game's own (standard, velikiye-luki-vv, "
                   "demyansk-shield, grossdeutschland, a-victory-denied, bfvl).")
@click.option("--px", type=int, default=PIECE_PX, show_default=True, help="Size of the VASSAL piece PNGs.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/GAME).")
def command(game: str | None, size: str | None, paper: tuple[str, ...], dpi: int, bleed: float, margin: float,
            offset: str, simplex: bool, no_crop_marks: bool, calibration: bool, copies: int, page_per_side: bool, layout: str | None,
            px: int, out: Path | None) -> None:
    """Draw the counters of GAME: per-counter PNGs (front and back) and duplex-ready PDF sheets."""
    loaded = load_game(game or default_game())
    if layout:
        resolve_layout(layout)  # an unknown name fails here, before any file is written
        loaded = replace(loaded, counter_style=replace(loaded.counter_style, layout=layout))
    size_in = parse_size(size) if size is not None else loaded.counter_style.size_inches
    base = SheetSpec(size_in=size_in, dpi=dpi, margin_in=margin, bleed_in=bleed, duplex=not simplex,
                     duplex_offset=parse_offset(offset), copies=copies, crop_marks=not no_crop_marks,
                     calibration=calibration, page_per_side=page_per_side)
    folder = out or Path("build") / loaded.id
    progress = lambda message: click.echo(f"  {message}", err=True)  # noqa: E731
    written = write_piece_images(loaded, folder / "counters", px, progress)
    written += write_piece_images(loaded, folder / "counters" / f"{dpi}dpi", base.counter_px, progress)
    for name in paper or sorted(PAPERS):
        spec = replace(base, paper=name)
        path = folder / "sheets" / f"{loaded.id}-counters-{name}.pdf"
        path.parent.mkdir(parents=True, exist_ok=True)
        written.append(write_sheets(loaded, spec, path, progress))
        click.echo(f"{path}: {spec.size_in:.4g} in counters on {name}, {len(plan_pages(loaded, spec))} sheet(s)"
                   f"{' duplex' if spec.duplex else ''}")
    click.echo(f"wrote {len(written)} files into {folder}/")

