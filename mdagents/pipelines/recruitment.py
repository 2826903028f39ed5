"""Reading the intermediate recruiter's reply: experts, their specialities and hierarchy.

The requested format is `1. Pediatrician - Specializes in ... - Hierarchy: Independent`.
Models vary it (bold, `1)`, bullets, en dashes, colons, no hierarchy), so each line is read
leniently. A reply that yields fewer than 2 experts is replaced by DEFAULT_PANEL, and the
pipeline records that it did so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

INDEPENDENT = "Independent"

# The recorded fallback panel: broad specialities that cover most exam-style vignettes.
DEFAULT_PANEL: tuple[tuple[str, str], ...] = (
    ("General Internist", "Diagnoses and manages a broad range of adult diseases."),
    ("Emergency Physician", "Assesses acute presentations and prioritises life-threatening conditions."),
    ("Clinical Pharmacologist", "Specializes in drug mechanisms, interactions and adverse effects."),
    ("Pathologist", "Interprets laboratory, histological and microbiological findings."),
    ("Radiologist", "Interprets medical imaging to support diagnosis."),
    ("Pediatrician", "Specializes in the medical care of infants, children and adolescents."),
    ("General Surgeon", "Evaluates surgical conditions and operative management."),
    ("Obstetrician-Gynecologist", "Specializes in pregnancy, childbirth and the female reproductive system."),
    ("Psychiatrist", "Diagnoses and treats mental, emotional and behavioural disorders."),
    ("Neurologist", "Specializes in disorders of the brain, spinal cord and nerves."),
)


@dataclass(frozen=True)
class Expert:
    role: str
    description: str
    hierarchy: str = INDEPENDENT  # "Independent" or a chain such as "Pediatrician > Cardiologist"

    def to_dict(self) -> dict[str, str]:
        return {"role": self.role, "description": self.description, "hierarchy": self.hierarchy}


_MARKUP = re.compile(r"[*_`#]")
_NUMBERED = re.compile(r"^\s*(?:(?:expert|agent)\s*)?(\d+)\s*[.):\-–—]\s*", re.IGNORECASE)
_BULLET = re.compile(r"^\s*[-–—•]\s+")
_HIERARCHY = re.compile(r"[\s,;|(\[\-–—]*\bhierarchy\b\s*[:\-–—]?\s*(.*)$", re.IGNORECASE)
_SEPARATOR = re.compile(r"\s+[-–—]\s+|:\s+|\s+[-–—](?=[A-Z])")


def _parse_line(raw: str) -> Expert | None:
    line = _MARKUP.sub("", raw).strip()
    numbered = _NUMBERED.match(line)
    bullet = _BULLET.match(line)
    hierarchy_match = _HIERARCHY.search(line)
    if not (numbered or bullet or hierarchy_match):
        return None
    if numbered:
        line = line[numbered.end():]
    elif bullet:
        line = line[bullet.end():]
    hierarchy = INDEPENDENT
    hierarchy_match = _HIERARCHY.search(line)
    if hierarchy_match:
        hierarchy = hierarchy_match.group(1).strip(" .)]-–—") or INDEPENDENT
        line = line[: hierarchy_match.start()]
    parts = _SEPARATOR.split(line.strip(), maxsplit=1)
    role = parts[0].strip(" .:-–—")
    description = parts[1].strip(" .-–—") if len(parts) > 1 else ""
    if not role or len(role) > 80 or len(role.split()) > 8:
        return None
    return Expert(role, description, hierarchy)


def parse_experts(reply: str, limit: int) -> list[Expert]:
    """Experts named in the reply, in order, at most `limit`.

    A line holding only `Hierarchy: ...` belongs to the expert above it.
    """
    experts: list[Expert] = []
    for line in reply.splitlines():
        expert = _parse_line(line)
        if expert is not None:
            experts.append(expert)
            continue
        alone = _HIERARCHY.match(_MARKUP.sub("", line).strip())
        if alone and experts and experts[-1].hierarchy == INDEPENDENT:
            chain = alone.group(1).strip(" .)]-–—") or INDEPENDENT
            experts[-1] = Expert(experts[-1].role, experts[-1].description, chain)
    return experts[:limit]


def default_panel(size: int) -> list[Expert]:
    """The recorded fallback: the first `size` of DEFAULT_PANEL, all independent."""
    panel = [Expert(role, description) for role, description in DEFAULT_PANEL[:size]]
    panel += [Expert(f"General Physician {i}", "Provides broad clinical judgement.")
              for i in range(len(panel) + 1, size + 1)]
    return panel
