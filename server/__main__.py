"""``python -m toolcast.server``: the language server on stdio."""

from .lsp.app import main

main()
