"""``python -m toolkit`` runs the ``hexforge`` command."""

from .cli import main

main()
