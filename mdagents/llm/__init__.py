"""LLM access: one client per model (`LLM`), thin provider translators, cache and usage types."""
