"""`view RUN_DIR`: the static site a researcher browses a run with (pages read as HTML here;
tests/test_viewer_browser.py renders them in a real browser)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mdagents.analysis.interaction_graph import round_graph
from mdagents.analysis.threads import split_threads
from mdagents.cli import main
from tests.viewer_runs import (
    debating,
    experts_named_in,
    good,
    make_run,
    make_viewed_run,
    records,
    soup,
    transcript,
)


@pytest.fixture(scope="module")
def debate_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_viewed_run(tmp_path_factory.mktemp("debate"), debating(), "--difficulty", "intermediate")


@pytest.fixture(scope="module")
def advanced_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_viewed_run(tmp_path_factory.mktemp("advanced"), good(), "--difficulty", "advanced", n=2)


def page(run_dir: Path, sample_id: str) -> Path:
    return run_dir / "view" / "questions" / f"{sample_id}.html"


def test_index_lists_every_question_with_a_working_link(debate_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index = soup(debate_run / "view" / "index.html")
    rows = index.select("table#questions tbody tr")
    ids = [r["id"] for r in records(debate_run)]
    assert [row["data-id"] for row in rows] == ids
    headers = [th.get_text(" ", strip=True).lower() for th in index.select("table#questions thead th")]
    calls_column = next(i for i, h in enumerate(headers) if h.startswith("calls"))
    for row, record in zip(rows, records(debate_run), strict=True):
        link = row.find("a")
        assert (debate_run / "view" / link["href"]).is_file()
        cells = [td.get_text(" ", strip=True) for td in row.find_all("td")]
        assert cells[2] == record["prediction"] and cells[3] == record["answer_idx"]
        assert row["data-outcome"] == "correct" and row["data-level"] == "intermediate"
        assert "forced" in cells[1] and cells[calls_column] == str(record["calls"])
        if "extraction" in record:
            assert record["extraction"] in cells
    summary = index.select_one("section.summary").get_text(" ", strip=True)
    assert "100.0%" in summary and "95% CI" in summary and "cost" in summary


def test_debate_page_shows_panel_answer_changes_messages_and_the_decision(debate_run: Path) -> None:
    record = records(debate_run)[0]
    html = soup(page(debate_run, record["id"]))
    experts = [e["role"] for e in record["details"]["experts"]]
    panel = html.select_one("table.experts").get_text(" ", strip=True)
    assert all(role in panel for role in experts)
    assert experts_named_in(transcript(debate_run, record["id"])["calls"]) == set(experts)
    # The contrarians (Cardiologist, Neurologist) start on the wrong option and are talked round.
    evolution = {row.find("td").get_text(strip=True): [c.get_text(strip=True) for c in row.select("span.chip")]
                 for row in html.select("table.evolution tr")[1:-1]}
    truth = record["answer_idx"]
    assert [th.get_text() for th in html.select("table.evolution th")] == ["expert", "Initial", "Round 1", "Final"]
    assert evolution["1 · Internist"] == [truth] * 3
    assert evolution["2 · Cardiologist"][0] != truth and evolution["2 · Cardiologist"][1:] == [truth, truth]
    assert evolution["4 · Neurologist"][0] != truth
    rounds = html.select("div.round")
    assert len(rounds) == 1
    svg = rounds[0].find("svg")
    assert len(svg.select("g.expert")) == 5
    assert sorted(g["data-edge"] for g in svg.select("g.edge")) == ["1:1-2", "1:1-4", "1:2-1", "1:3-2"]
    messages = [li.get_text(" ", strip=True) for li in rounds[0].select(".messages li")]
    assert any("Expert 3 (Pulmonologist) → Expert 2 (Cardiologist)" in m and "compensation" in m for m in messages)
    assert rounds[0].select_one(".summary-text").get_text(" ", strip=True).endswith("the consensus answer stands.")
    final = html.select_one(".verdict").get_text(" ", strip=True)
    assert f"prediction {record['prediction']}" in final and f"truth {truth}" in final


def test_every_call_is_on_the_timeline_attributed_to_its_expert(debate_run: Path) -> None:
    record = records(debate_run)[0]
    html = soup(page(debate_run, record["id"]))
    rows = html.select("table.timeline tr.call")
    assert len(rows) == record["calls"] == len(transcript(debate_run, record["id"])["calls"])
    who = [row.select_one("td.who").get_text(" ", strip=True) for row in rows]
    assert sum(w.startswith("Expert 2 (Cardiologist)") for w in who) == sum(
        w.startswith("Expert 1 (Internist)") for w in who) > 3
    steps = [row.find_all("td")[2].get_text(" ", strip=True) for row in rows]
    assert steps.count("updated answer, round 1") == 5  # the latest answer is the final one: no separate call
    assert who[-1].startswith("Moderator")


def test_advanced_page_shows_teams_delegations_reports_and_coordinator(advanced_run: Path) -> None:
    record = records(advanced_run)[0]
    html = soup(page(advanced_run, record["id"]))
    teams = html.select("article.team")
    names = [t["name"] for t in record["details"]["teams"]]
    assert [t.find("header").get_text(" ", strip=True).split(" ", 1)[1].rsplit(" ", 1)[0] for t in teams[:-1]] == names
    for article, team in zip(teams, record["details"]["teams"], strict=False):
        text = article.get_text(" ", strip=True)
        assert all(m["role"] in text for m in team["members"])
        assert "lead's delegation" in text and "review the findings" in text
        assert record["details"]["reports"][team["name"]].splitlines()[-1] in text
    assert "Coordinator" in teams[-1].get_text()
    # Each lead's calls are credited to its own team, even though later leads read earlier reports.
    who = [row.select_one("td.who").get_text(" ", strip=True) for row in html.select("table.timeline tr.call")]
    for team in record["details"]["teams"]:
        lead = next(m["role"] for m in team["members"] if m["lead"])
        assert sum(w.startswith(f"{lead} · lead, {team['name']}") for w in who) == 2


def test_basic_page_shows_the_exemplars_and_the_reply(tmp_path: Path) -> None:
    run_dir = make_viewed_run(tmp_path, good(), "--difficulty", "basic", n=1)
    record = records(run_dir)[0]
    html = soup(page(run_dir, record["id"]))
    assert len(html.select(".exemplar")) == 5
    assert record["response"].strip() in html.select_one(".decision-text").get_text()


def test_generated_files_fetch_nothing_from_the_network(debate_run: Path, advanced_run: Path) -> None:
    for run_dir in (debate_run, advanced_run):
        for path in (run_dir / "view").rglob("*"):
            if path.suffix == ".html":
                for tag in soup(path).find_all(src=True) + soup(path).find_all(href=True):
                    target = tag.get("src") or tag.get("href")
                    assert not re.match(r"^(https?:)?//", target), (path.name, target)
                    if not target.startswith("#"):
                        assert (path.parent / target.split("#")[0]).resolve().is_file(), (path.name, target)
            elif path.suffix in (".css", ".js"):
                assert not re.search(r"https?://|url\(|@import|fetch\(|XMLHttpRequest", path.read_text()), path


def test_compare_lists_disagreements_and_links_both_runs(tmp_path: Path, debate_run: Path) -> None:
    always_a = make_run(tmp_path / "always_a", lambda messages, params: "Answer: (A)", "--difficulty", "basic")
    assert main(["view", str(debate_run), "--compare", str(always_a)]) == 0
    compare = soup(debate_run / "view" / "compare.html")
    mine, theirs = {r["id"]: r for r in records(debate_run)}, {r["id"]: r for r in records(always_a)}
    differing = [i for i in mine if mine[i]["prediction"] != theirs[i]["prediction"]]
    assert differing, "the sample questions' answers are not all (A)"
    rows = compare.select("table.questions tbody tr")
    assert [row.find("td").get_text(strip=True) for row in rows] == differing
    for row in rows:
        links = [a["href"] for a in row.find_all("a")]
        assert [Path(link).parent.name for link in links] == ["questions", "other"]
        other_page = soup(debate_run / "view" / links[1])
        assert "basic" in other_page.select_one(".verdict").get_text()
    assert compare.find("a", href="compare.html") is not None
    assert soup(debate_run / "view" / "index.html").find("a", href="compare.html") is not None
    # Viewing again without --compare removes the stale comparison.
    assert main(["view", str(debate_run)]) == 0
    assert not (debate_run / "view" / "compare.html").exists() and not (debate_run / "view" / "other").exists()


def test_records_without_transcripts_extraction_steps_and_errors(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = make_run(tmp_path, good(), "--difficulty", "basic", "--transcripts", "none", n=2)
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    first, second = json.loads(lines[0]), json.loads(lines[1])
    first["extraction"] = {"step": "anchored declaration"}
    second.update(error="provider returned 500 three times", prediction=None, correct=False, parse_status="failed")
    (run_dir / "results.jsonl").write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n")
    capsys.readouterr()
    assert main(["view", str(run_dir)]) == 0
    assert "2 question(s) have no transcript" in capsys.readouterr().err
    index = soup(run_dir / "view" / "index.html")
    assert "grading" in [th.get_text() for th in index.select("thead th")]
    rows = {row["data-id"]: row for row in index.select("tbody tr")}
    assert "anchored declaration" in rows[first["id"]].get_text()
    assert rows[second["id"]]["data-outcome"] == "error"
    broken = soup(page(run_dir, second["id"])).get_text(" ", strip=True)
    assert "provider returned 500 three times" in broken and "--transcripts none" in broken


@pytest.mark.parametrize("args", [["view", "no/such/run"], ["view"]])
def test_bad_run_directory_is_a_usage_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_compare_with_itself_is_a_usage_error(debate_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["view", str(debate_run), "--compare", str(debate_run) + "/"]) == 2
    assert "different run directory" in capsys.readouterr().err


def test_threads_follow_conversations_even_when_personas_look_alike() -> None:
    system = {"role": "system", "content": "You are a Cardiologist."}
    ask = {"role": "user", "content": "Your answer?"}
    calls = [
        {"role": "expert", "start_s": 0.0, "messages": [system, ask], "reply": "B"},
        {"role": "expert", "start_s": 0.0, "messages": [system, ask], "reply": "C"},
        {"role": "expert", "start_s": 1.0, "messages": [system, ask, {"role": "assistant", "content": "C"},
                                                        {"role": "user", "content": "Talk?"}], "reply": "no"},
        {"role": "expert", "start_s": 1.0, "messages": [system, ask, {"role": "assistant", "content": "B"},
                                                        {"role": "user", "content": "Talk?"}], "reply": "yes"},
    ]
    assert [t.calls for t in split_threads(calls)] == [[0, 3], [1, 2]]


def test_graph_separates_replies_and_weights_busy_pairs() -> None:
    messages = [{"source": 1, "target": 2, "turn": 1, "message": "a"}, {"source": 1, "target": 2, "turn": 2, "message": "b"},
                {"source": 2, "target": 1, "turn": 1, "message": "c"}, {"source": 3, "target": 9, "turn": 1, "message": "?"}]
    graph = round_graph(["Internist", "Cardiologist", "Neurologist"], messages, {2: ("B", "A")}, truth="A")
    there, back = graph.edges
    assert (there.key, back.key) == ("1-2", "2-1") and there.width > back.width
    assert there.path != back.path  # the two directions bend to opposite sides
    assert graph.nodes[1].status == "right" and graph.nodes[1].before == "B" and graph.nodes[0].status == "none"


def test_model_text_is_shown_as_text_not_markup(tmp_path: Path) -> None:
    reply = 'Answer: (A) <script>document.title="pwned"</script><img src=x onerror=alert(1)>'
    run_dir = make_viewed_run(tmp_path, lambda messages, params: reply, "--difficulty", "basic", n=1)
    html = soup(page(run_dir, records(run_dir)[0]["id"]))
    assert [s.get("src") for s in html.find_all("script")] == ["../view.js"]
    assert html.find("img") is None
    assert '<script>document.title="pwned"</script>' in html.select_one(".decision-text").get_text()
