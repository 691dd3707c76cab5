"""Tracing supply (Rule 15 B) and isolation (15 C) with the shared supply search: artillery
within seven hexes of a road or railroad that runs back to a friendly edge, every unit by a path
of any length to a friendly edge; both free of enemy units and their ZOCs (friendly units do not
cancel a ZOC, Rule 3)."""

from __future__ import annotations

import dataclasses

from ...referee import Position, SupplyResult, SupplyRules, supply_status
from . import units as U

ARTILLERY = SupplyRules(rule="15 B", source_kinds=("edge",), max_length=7, road_lines=("road", "rail"),
                        enemy_blocks=True, ezoc_blocks=True, friendly_negates=False, hexsides_block=False,
                        ladder=("out_of_supply",), ladder_rule="15 B")


def _isolation_rules(edges: str) -> SupplyRules:
    return SupplyRules(rule="15 C", source_kinds=("edge",) if edges == "supply" else ("rail",), max_length=None,
                       road_lines=(), enemy_blocks=True, ezoc_blocks=True, friendly_negates=False,
                       hexsides_block=False, ladder=("isolated",), ladder_rule="15 C")


def artillery_supply(pos: Position, rs, side: str) -> SupplyResult:
    """Artillery of ``side`` in traced supply (15 B); other units are left out of the answer."""
    result = supply_status(pos, dataclasses.replace(rs, supply=ARTILLERY), side)
    keep = {u.id for u in pos.on_map(side) if U.is_artillery(u)}
    result.supplied &= keep
    result.unsupplied &= keep
    result.status = {k: v for k, v in result.status.items() if k in keep}
    result.paths = {k: v for k, v in result.paths.items() if k in keep}
    return result


def isolation(pos: Position, rs, side: str) -> SupplyResult:
    """Every unit of ``side``: supplied, or "isolated" when no path free of enemy units and
    ZOCs reaches a friendly edge (15 C; the edges are option ``isolation_edges``)."""
    return supply_status(pos, dataclasses.replace(rs, supply=_isolation_rules(rs.option(pos, "isolation_edges"))),
                         side)
