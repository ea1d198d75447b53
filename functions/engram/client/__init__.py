"""The Python client, as seen from the server package: ``engram_memory_client`` (its own
distribution, ``pip install engram-memory-client``) plus the offline tool schemas.

New code imports ``engram_memory_client`` directly; this module keeps ``engram.client``
working where the whole service is installed.
"""

from engram_memory_client import *  # noqa: F403 (the client's public names, re-exported)
from engram_memory_client import __all__ as _client_all

from engram.domain.tools import anthropic_tools, bedrock_tools, openai_responses_tools, openai_tools

__all__ = [*_client_all, "anthropic_tools", "bedrock_tools", "openai_responses_tools", "openai_tools"]
