"""``python -m magdagdon``: the same as the ``magdagdon`` command."""

from magdagdon.cli import main

raise SystemExit(main())
