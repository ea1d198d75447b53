"""OpenSearch adapter: the ``SearchIndex`` port on an OpenSearch (k-NN) cluster."""

from engram.adapters.opensearch.index import OpenSearchIndex

__all__ = ["OpenSearchIndex"]
