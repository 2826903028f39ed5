"""The experts' communication hierarchy as a tree under the moderator (paper Fig. 2).

A hierarchy string like `Pediatrician > Cardiologist` on the Cardiologist's line makes the
Pediatrician its superior; `Independent` (or anything unreadable) reports to the moderator.
Unlike the original, each expert appears exactly once, names match loosely, and a chain
that would form a cycle is cut at the moderator.
"""

from __future__ import annotations

import re
from typing import Any

from mdagents.pipelines.recruitment import Expert

MODERATOR = "Moderator"


def _norm(name: str) -> str:
    return re.sub(r"[^a-z ]", "", name.lower()).strip()


def _find(name: str, experts: list[Expert], exclude: int) -> int | None:
    wanted = _norm(name)
    if not wanted:
        return None
    roles = [_norm(e.role) for e in experts]
    for i, role in enumerate(roles):
        if i != exclude and role == wanted:
            return i
    for i, role in enumerate(roles):
        if i != exclude and role and (role in wanted or wanted in role):
            return i
    return None


def _superior(index: int, experts: list[Expert]) -> int | None:
    """Index of the expert `experts[index]` reports to, or None for the moderator."""
    chain = experts[index].hierarchy
    if ">" not in chain or "independent" in chain.lower():
        return None
    levels = [level.strip() for level in chain.split(">")]
    own = next((k for k, level in enumerate(levels)
                if any(_norm(p) == _norm(experts[index].role) for p in re.split(r"==?|,", level))), None)
    if own == 0:
        return None
    above = levels[own - 1] if own is not None else levels[-2]
    for peer in re.split(r"==?|,", above):
        found = _find(peer, experts, exclude=index)
        if found is not None:
            return found
    return None


def superiors(experts: list[Expert]) -> list[int | None]:
    """For each expert, its superior's index (None = moderator), with cycles broken."""
    parents = [_superior(i, experts) for i in range(len(experts))]
    for i in range(len(experts)):
        seen, node = {i}, parents[i]
        while node is not None:
            if node in seen:
                parents[i] = None
                break
            seen.add(node)
            node = parents[node]
    return parents


def tree(experts: list[Expert]) -> dict[str, Any]:
    """Nested dicts {name, expert (1-based), children} rooted at the moderator."""
    parents = superiors(experts)

    def node(i: int) -> dict[str, Any]:
        return {"name": experts[i].role, "expert": i + 1,
                "children": [node(j) for j, p in enumerate(parents) if p == i]}

    return {"name": MODERATOR, "expert": None,
            "children": [node(i) for i, p in enumerate(parents) if p is None]}


def render_tree(root: dict[str, Any]) -> str:
    """The tree drawn with box characters, for verbose output and the moderator's prompt."""
    lines = [root["name"]]

    def walk(children: list[dict[str, Any]], prefix: str) -> None:
        for k, child in enumerate(children):
            last = k == len(children) - 1
            lines.append(f"{prefix}{'└── ' if last else '├── '}Expert {child['expert']}: {child['name']}")
            walk(child["children"], prefix + ("    " if last else "│   "))

    walk(root["children"], "")
    return "\n".join(lines)
