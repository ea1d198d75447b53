"""The REST API: one Powertools router per resource, composed in ``engram.api.app``."""
