"""Every package's public surface: each name in __all__ exists, and the layers import one way."""

import ast
import importlib
from pathlib import Path

import pytest

PACKAGES = ["toolkit", "toolkit.game", "toolkit.io", "toolkit.render", "toolkit.vassal", "toolkit.referee",
            "toolkit.play", "toolkit.importer", "toolkit.draft"]
TOOLKIT = Path(__file__).resolve().parents[1] / "toolkit"


@pytest.mark.parametrize("name", PACKAGES)
def test_every_exported_name_exists(name):
    module = importlib.import_module(name)
    assert module.__all__, f"{name} exports nothing"
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert not missing


def _imports(path: Path) -> set[str]:
    """Top-level toolkit subpackages a module imports (relative or absolute)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the module's package
                package = path.relative_to(TOOLKIT).parts[:-1]
                base = list(package[: len(package) - node.level + 1])
                target = base + (node.module.split(".") if node.module else [])
            else:
                if not (node.module or "").startswith("toolkit"):
                    continue
                target = node.module.split(".")[1:]
            if target:
                found.add(target[0].removesuffix(".py"))
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("toolkit."))
    return found


# design.md: cli -> (render, vassal, referee, validate) -> io -> game -> hexes
FORBIDDEN = {
    "hexes": {"game", "io", "render", "vassal", "referee", "rulesets", "cli", "validate", "build"},
    "game": {"io", "render", "vassal", "referee", "rulesets", "cli", "validate", "build"},
    "io": {"render", "vassal", "referee", "rulesets", "cli", "validate", "build"},
    "referee": {"render", "vassal", "cli", "build"},
    "render": {"vassal", "referee", "rulesets", "cli", "build"},
    "play": {"cli", "build", "validate"},
}


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_dependencies_point_one_way(layer):
    files = [TOOLKIT / f"{layer}.py"] if (TOOLKIT / f"{layer}.py").exists() else sorted((TOOLKIT / layer).rglob("*.py"))
    wrong = {str(f.relative_to(TOOLKIT)): sorted(_imports(f) & FORBIDDEN[layer]) for f in files}
    assert not {k: v for k, v in wrong.items() if v}


@pytest.mark.parametrize("layer", ["game", "io", "referee", "rulesets"])
def test_model_io_and_referee_never_draw(layer):
    # design.md: the model never imports a renderer; the referee never imports pillow
    for path in sorted((TOOLKIT / layer).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        modules |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not {m.split(".")[0] for m in modules} & {"PIL", "lxml"}, path
