"""``python -m toolkit.cli`` runs the ``hexforge`` command."""

from . import main

main()
