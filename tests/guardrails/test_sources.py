"""Citations count only if a tool returned them; the output check speaks up on health content only."""

from __future__ import annotations

from mdagents.guardrails.assistant import Assistant
from mdagents.guardrails.citations import web_citations, web_search_performed
from mdagents.guardrails.messages import message
from mdagents.guardrails.output_check import check_output
from tests.fakes.scripted import scripted_llm

OK = " This is general information, not a substitute for medical advice; talk to your doctor."
MADE_UP = "https://www.cdc.gov/flu/made-up-page-2031.html"


def test_a_made_up_trusted_link_is_not_a_citation_and_is_removed() -> None:
    result = check_output(f"Flu spreads through droplets; see {MADE_UP} for more." + OK)
    assert "NO_CITATIONS" in result.types and not result.has_trusted_citations
    assert any(v.type == "UNTRUSTED_SOURCES" and v.evidence == MADE_UP for v in result.violations)
    assert MADE_UP not in result.modified_response
    assert message("unverified_link", "en") in result.modified_response


def test_the_same_link_returned_by_a_tool_is_a_citation() -> None:
    cited = [{"source": MADE_UP, "url": MADE_UP, "origin": "web"}]
    result = check_output(f"Flu spreads through droplets; see {MADE_UP}." + OK, citations=cited)
    assert result.types == [] and result.has_trusted_citations and MADE_UP in result.modified_response


def test_web_citations_are_what_the_tools_returned() -> None:
    raw = {"citations": [{"url": "https://www.who.int/flu", "title": "Influenza"}],
           "server_tools": ["web_search", "web_fetch"], "tool_results": ["https://www.nhs.uk/conditions/flu/"]}
    text = f"See https://www.nhs.uk/conditions/flu/ and {MADE_UP}."
    assert [c["url"] for c in web_citations(text, raw)] == ["https://www.who.int/flu", "https://www.nhs.uk/conditions/flu/"]
    assert web_citations(text, {}) == []
    assert web_search_performed(raw) and not web_search_performed({"id": "x"}) and not web_search_performed(None)


def test_a_greeting_gets_no_source_note_and_no_disclaimer() -> None:
    for greeting in ("Hello! How can I help you today?", "Bonjour ! Que voulez-vous savoir ?", "你好！有什么可以帮您？"):
        result = check_output(greeting)
        assert result.types == [] and result.modified_response == greeting
    assert "NO_CITATIONS" in check_output("Flu is a viral infection.").types  # health content still needs one


async def test_the_reply_carries_the_specs_verdict_fields() -> None:
    assistant = Assistant(scripted_llm(lambda messages, params: "Hello! What would you like to know about?"))
    greeting = await assistant.ask("hi there")
    assert greeting.content == "Hello! What would you like to know about?"
    assert greeting.output_check["passes_guardrails"] and greeting.output_check["severity"] == "none"
    assert greeting.web_search_performed is False
    dosing = Assistant(scripted_llm(lambda messages, params: "Ibuprofen eases pain and swelling in many people. "
                                    "Take 400 mg every 6 hours." + OK))
    reply = await dosing.ask("What is ibuprofen?")
    verdict = reply.output_check
    assert verdict["passes_guardrails"] is False and verdict["severity"] == "critical"
    assert "DOSING" in verdict["explanation"] and verdict["suggested_action"] == "remove_content"
    assert set(verdict) >= {"passes_guardrails", "severity", "explanation", "web_search_performed",
                            "has_trusted_citations"}
    assert "400 mg" not in reply.content


def test_the_anthropic_record_says_which_server_tools_ran_and_what_they_returned() -> None:
    from mdagents.llm.anthropic import server_tool_use

    blocks = [{"type": "server_tool_use", "name": "web_search"},
              {"type": "web_search_tool_result", "content": [{"type": "web_search_result", "url": "https://www.who.int/a"}]},
              {"type": "server_tool_use", "name": "web_fetch"},
              {"type": "web_fetch_tool_result", "content": {"type": "web_fetch_result", "url": "https://www.nhs.uk/b"}},
              {"type": "text", "text": "answer"}]
    assert server_tool_use(blocks) == {"server_tools": ["web_search", "web_fetch"],
                                       "tool_results": ["https://www.who.int/a", "https://www.nhs.uk/b"]}
    assert server_tool_use([{"type": "text", "text": "no tools"}]) == {}
