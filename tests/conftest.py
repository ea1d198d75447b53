import os

# jsii (the CDK's bridge to Node) warns on every import about Node's support window.
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
# The default embedder is MiniLM (semantic, offline); the suite asks for the hashing one
# explicitly to stay fast and deterministic, servers it starts included. Tests of MiniLM
# and of the default build their own settings.
os.environ.setdefault("ENGRAM_EMBEDDER", "hash")
os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "EngramTest")
