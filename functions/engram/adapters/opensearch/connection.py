"""How the index reaches its cluster: the URL to use, and whether requests are signed
with SigV4 (an Amazon OpenSearch Service domain) or not (a local container).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True, slots=True)
class ConnectionPlan:
    url: str
    # Set for an Amazon OpenSearch Service domain: requests are SigV4-signed for "es".
    aws_region: str | None


_AWS_SUFFIXES = (".es.amazonaws.com", ".es.amazonaws.com.cn")


def connection_plan(url: str, default_region: str) -> ConnectionPlan:
    """How to reach the cluster at ``url``.

    Amazon OpenSearch Service endpoints (``search-…`` and ``vpc-…``) end in
    ``.<region>.es.amazonaws.com``; anything else (a local container) is used as given.
    """
    parts = urlsplit(url)
    if not parts.scheme or not parts.hostname:
        raise ValueError("The OpenSearch URL must look like https://host[:port].")
    host = parts.hostname.lower()
    for suffix in _AWS_SUFFIXES:
        if host.endswith(suffix):
            labels = host[: -len(suffix)].split(".")
            region = labels[-1] if len(labels) >= 2 else default_region
            return ConnectionPlan(url, region)
    return ConnectionPlan(url, None)
