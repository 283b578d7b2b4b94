"""Rules and findings: every rule's code, severity and documentation (``codes``, registered at import in
``registry.RULES``) and the ``Finding`` record checks produce. Below both ``checks`` and ``messages``, which
emit findings under these codes; imports only the owners of the numbers its texts quote (the document limits,
the schema walk's budget; the provider profiles and the pattern limits when a text is read, ``quoted``)."""

from __future__ import annotations

from . import codes as _codes  # noqa: F401  (registers every rule in RULES)
