"""mdagents: adaptive multi-agent LLM medical decision making (MDAgents, NeurIPS 2024)."""

__version__ = "0.1.0"
