"""Games from what already exists: VASSAL modules (``import_vmod``) and their grids."""

from .grid import BoardGrid, convert_grid
from .vmod import ImportResult, import_vmod

__all__ = ["BoardGrid", "ImportResult", "convert_grid", "import_vmod"]
