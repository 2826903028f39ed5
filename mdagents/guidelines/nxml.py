"""Read NCBI Bookshelf NXML (BITS/JATS-like) safely into a tree of titled sections.

Parsing goes through defusedxml: DTD declarations are allowed (Bookshelf files carry a
DOCTYPE), but entity declarations -- the billion-laughs bomb and external entities -- are
refused. Front matter, reference lists and acknowledgements (`fm-*`, `rl-*`, `ak-*`, and
their element types) are dropped here, so chunking never sees them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from mdagents.guidelines.errors import GuidelineInputError

_SKIP_PREFIX = re.compile(r"^(fm|rl|ak)(\d|[-_.]|$)", re.IGNORECASE)
_SKIP_ELEMENTS = frozenset({"ref-list", "ack", "fn-group", "front-matter", "notes"})
_SKIP_TYPES = frozenset({"ref-list", "references", "acknowledgements", "acknowledgments", "front-matter",
                         "frontmatter", "foreword", "reference-list"})
_META_ELEMENTS = frozenset({"title", "label", "sec-meta", "book-part-meta", "subtitle", "alt-title"})
_SECTION_ELEMENTS = frozenset({"sec", "app", "glossary", "book-part"})


@dataclass
class Section:
    """A titled section: its own blocks of text (paragraphs, boxes, lists, tables) and child sections."""

    title: str
    blocks: list[str] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)


@dataclass
class Document:
    """One NXML file: the book title and its top-level sections (usually one per chapter)."""

    book: str
    sections: list[Section]


def is_skipped_name(name: str) -> bool:
    """True for front matter, reference list and acknowledgement files or ids (fm1, rl-2, ak-ch5...)."""
    return bool(_SKIP_PREFIX.match(name))


def _tag(element: ET.Element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1]


def _text(element: ET.Element | None) -> str:
    if element is None:
        return ""
    return " ".join("".join(element.itertext()).split())


def _skipped(element: ET.Element) -> bool:
    if _tag(element) in _SKIP_ELEMENTS:
        return True
    if is_skipped_name(element.get("id", "")):
        return True
    kind = (element.get("sec-type") or element.get("book-part-type") or element.get("content-type") or "").lower()
    return kind in _SKIP_TYPES


def _title_of(element: ET.Element) -> str:
    for path in ("title", "book-part-meta/title-group/title", "title-group/title", "caption/title", "label"):
        found = element.find(path)
        if found is not None and _text(found):
            return _text(found)
    return ""


def render_block(element: ET.Element) -> str:
    """Plain text of one content element, keeping list items, box titles and table rows apart."""
    tag = _tag(element)
    if tag == "list":
        items = [render_block(item) for item in element if _tag(item) == "list-item"]
        return "\n".join(f"- {item}" for item in items if item)
    if tag == "list-item":
        return " ".join(filter(None, (render_block(child) for child in element))) or _text(element)
    if tag == "table-wrap":
        head = " ".join(filter(None, (_text(element.find("label")), _text(element.find("caption")))))
        rows = [" | ".join(_text(cell) for cell in row if _tag(cell) in ("td", "th"))
                for row in element.iter() if _tag(row) == "tr"]
        foot = _text(element.find("table-wrap-foot"))
        return "\n".join(filter(None, [head, *rows, foot]))
    if tag in ("boxed-text", "fig", "disp-quote", "statement", "def-list"):
        parts = [" ".join(filter(None, (_text(element.find("label")), _text(element.find("caption")))))]
        for child in element:
            if _tag(child) not in ("label", "caption") and not _skipped(child):
                parts.append(f"{_title_of(child)}\n{render_block(child)}" if _tag(child) in _SECTION_ELEMENTS
                             else render_block(child))
        return "\n".join(p for p in parts if p)
    if tag in _SECTION_ELEMENTS:
        inner = [render_block(child) for child in element if _tag(child) not in _META_ELEMENTS]
        return "\n".join(filter(None, [_title_of(element), *inner]))
    return _text(element)


def read_section(element: ET.Element, title: str | None = None) -> Section:
    """A <sec> (or chapter body) as a Section: direct content blocks, then its child sections."""
    section = Section(title=title if title is not None else (_title_of(element) or "Untitled section"))
    for child in element:
        tag = _tag(child)
        if tag in _META_ELEMENTS or _skipped(child):
            continue
        if tag in _SECTION_ELEMENTS:
            section.children.append(read_section(child))
        elif tag in ("body", "back"):
            inner = read_section(child, title="")
            section.blocks.extend(inner.blocks)
            section.children.extend(inner.children)
        else:
            block = render_block(child)
            if block:
                section.blocks.append(block)
    return section


def parse_xml(path: Path) -> ET.Element:
    """The root element, refusing entity declarations and external references (defusedxml)."""
    try:
        return SafeET.parse(str(path), forbid_dtd=False, forbid_entities=True, forbid_external=True).getroot()
    except DefusedXmlException as exc:
        raise GuidelineInputError(f"{path}: refused unsafe XML ({type(exc).__name__})") from None
    except ET.ParseError as exc:
        raise GuidelineInputError(f"{path}: not well-formed XML ({exc})") from None
    except OSError as exc:
        raise GuidelineInputError(f"{path}: cannot read ({exc.strerror})") from None


def read_document(path: Path) -> Document:
    """Parse one NXML file: book-part chapters (BITS), or a JATS article body, into sections."""
    root = parse_xml(path)
    book = _text(root.find(".//book-meta//book-title")) or _text(root.find(".//article-title")) \
        or _text(root.find(".//book-title")) or path.stem
    parts = [el for el in root.iter() if _tag(el) == "book-part"]
    # Only the outermost book-parts: nested ones are read as part of their parent.
    nested = {id(inner) for part in parts for inner in part.iter() if inner is not part and _tag(inner) == "book-part"}
    sections: list[Section] = []
    for part in parts:
        if id(part) in nested or _skipped(part):
            continue
        sections.append(read_section(part, title=_title_of(part) or book))
    if not parts:
        body = root.find(".//body")
        if body is not None:
            sections.append(read_section(body, title=book))
    return Document(book=book, sections=sections)
