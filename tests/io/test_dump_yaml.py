"""dump_yaml: the project's YAML style, the same text on libyaml's emitter as on PyYAML's own."""

from __future__ import annotations

import yaml

from toolkit.io._source import _plain, _Style, dump_yaml

SAMPLE = {
    "id": "velikiye-luki",
    "hexes": {"0608": {"terrain": "forest", "estimated": "drafted from map.png"}, "1010": "clear"},
    "columns": [1, 12],
    "name": "Великие Луки — Festung",
    "notes": "a line\nand another",
    "units": [{"id": "g-83-1", "hex": "0405", "status": ["deployed", "isolated"]}] * 3,
    "long": ["a fairly long list item that will not fit on one line"] * 4,
}


class _PurePython(_Style, yaml.SafeDumper):
    pass


_PurePython.add_representer(str, _PurePython.represent_str)


def test_dump_yaml_keeps_hex_ids_text_and_short_lists_on_one_line():
    text = dump_yaml(SAMPLE)
    assert "'0608':" in text and "columns: [1, 12]" in text
    assert yaml.safe_load(text) == SAMPLE


def test_libyaml_and_pure_python_emitters_write_the_same_text():
    pure = yaml.dump(_plain(SAMPLE), Dumper=_PurePython, sort_keys=False, allow_unicode=True, width=110)
    assert dump_yaml(SAMPLE) == pure
