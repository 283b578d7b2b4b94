"""toolcast's language server and command line."""

#: The package version, as the language server reports it in ``initialize`` (read from here rather than
#: the installed metadata: importlib.metadata costs start-up time). A test keeps it equal to pyproject's.
__version__ = "0.1.0"
