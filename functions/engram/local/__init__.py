"""Running Engram on a laptop: the local HTTP server and the ``engram`` CLI."""
