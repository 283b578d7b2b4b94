"""toolcast's pure core: the canonical tool model, loading, conversion, checks and messages.

Nothing in this package imports pygls, lsprotocol or anything from ``toolcast.server``.
"""
