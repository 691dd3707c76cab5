"""Terrain from pictures: draft a map's terrain from an image, or check terrain data against one."""

from .draft import LOW_CONFIDENCE, Doubt, Draft, HexDraft, apply_draft, draft_terrain
from .geometry import PlacedLayout, placed_layout, render_layout
from .palette import Palette, parse_learn

__all__ = ["Doubt", "Draft", "HexDraft", "LOW_CONFIDENCE", "Palette", "PlacedLayout", "apply_draft", "draft_terrain",
           "parse_learn", "placed_layout", "render_layout"]
