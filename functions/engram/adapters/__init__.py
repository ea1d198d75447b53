"""Adapters: one module (or package) per external system, each behind a port."""
