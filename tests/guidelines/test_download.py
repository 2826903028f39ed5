"""Bookshelf download against a loopback HTTP server serving archives built in the test."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from mdagents.cli import main
from mdagents.guidelines.download import MANIFEST, PARTIAL_DIR, download_books, parse_file_list

CHAPTER = ("<book-part-wrapper><book-meta><book-title-group><book-title>{title}</book-title></book-title-group>"
           "</book-meta><book-part id='ch1'><body><sec><title>Treatment</title><p>{text}</p></sec></body>"
           "</book-part></book-part-wrapper>")


def targz(members: dict[str, bytes], *, symlink: tuple[str, str] | None = None) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        if symlink:
            info = tarfile.TarInfo(symlink[0])
            info.type = tarfile.SYMTYPE
            info.linkname = symlink[1]
            tar.addfile(info)
    return buffer.getvalue()


def book_archive(accession: str, title: str) -> bytes:
    return targz({
        f"{accession}/ch1.nxml": CHAPTER.format(title=title, text=f"{title} text").encode(),
        f"{accession}/fm1.nxml": b"<book-part-wrapper/>",
        f"{accession}/figure1.jpg": b"\xff\xd8 not text",
        f"{accession}/{accession}.pdf": b"%PDF-1.4",
    })


class Bookshelf:
    """Serves files from a dict, honours Range, logs requests, can fail the next requests."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.requests: list[tuple[str, str | None]] = []
        self.fail: list[int] = []
        shelf = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                path = self.path.removeprefix("/pub/litarch/")
                shelf.requests.append((path, self.headers.get("Range")))
                if shelf.fail:
                    self.send_response(shelf.fail.pop(0))
                    self.send_header("Retry-After", "0")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                data = shelf.files.get(path)
                if data is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                status, start = 200, 0
                if self.headers.get("Range"):
                    start = int(self.headers["Range"].split("=")[1].rstrip("-"))
                    status = 206
                body = data[start:]
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/pub/litarch/"

    def archive_requests(self) -> list[tuple[str, str | None]]:
        return [r for r in self.requests if r[0].endswith(".tar.gz")]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


FILE_LIST = (
    "File,Article Title,Publisher,Year,Accession ID,Last Updated (YYYY-MM-DD HH:MM:SS)\n"
    "ab/01/who_NBK1.tar.gz,Malaria guidelines,World Health Organization,2023,NBK1,2024-01-01 00:00:00\n"
    "ab/02/other_NBK2.tar.gz,Some textbook,Other Press,2020,NBK2,2024-01-01 00:00:00\n"
    'ab/03/who_NBK3.tar.gz,"Tuberculosis, consolidated",World Health Organization,2022,NBK3,2024-01-01 00:00:00\n'
    "ab/04/who_NBK4.tar.gz,Hypertension,World Health Organization,2021,NBK4,2024-01-01 00:00:00\n"
)


@pytest.fixture
def shelf() -> Iterator[Bookshelf]:
    files = {"file_list.csv": FILE_LIST.encode(),
             "ab/01/who_NBK1.tar.gz": book_archive("NBK1", "Malaria"),
             "ab/02/other_NBK2.tar.gz": book_archive("NBK2", "Textbook"),
             "ab/03/who_NBK3.tar.gz": book_archive("NBK3", "Tuberculosis"),
             "ab/04/who_NBK4.tar.gz": book_archive("NBK4", "Hypertension")}
    server = Bookshelf(files)
    yield server
    server.close()


def test_file_list_filter_by_publisher() -> None:
    who = parse_file_list(FILE_LIST)
    assert [e.accession for e in who] == ["NBK1", "NBK3", "NBK4"]
    assert who[1].title == "Tuberculosis, consolidated"
    assert [e.accession for e in parse_file_list(FILE_LIST, "other press")] == ["NBK2"]
    assert len(parse_file_list(FILE_LIST, None)) == 4


def test_downloads_who_books_and_extracts_only_nxml(shelf: Bookshelf, tmp_path: Path) -> None:
    report = download_books(tmp_path, base_url=shelf.base_url, delay=0)
    assert report.downloaded == ["NBK1", "NBK3", "NBK4"] and not report.failed
    files = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert files == [MANIFEST, "NBK1/ch1.nxml", "NBK1/fm1.nxml", "NBK3/ch1.nxml", "NBK3/fm1.nxml",
                     "NBK4/ch1.nxml", "NBK4/fm1.nxml"]
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    assert manifest["NBK1"]["sha256"] == hashlib.sha256(shelf.files["ab/01/who_NBK1.tar.gz"]).hexdigest()
    assert "ab/02/other_NBK2.tar.gz" not in [r[0] for r in shelf.requests]


def test_limit_and_resume_skip_complete_books(shelf: Bookshelf, tmp_path: Path) -> None:
    assert download_books(tmp_path, base_url=shelf.base_url, delay=0, limit=1).downloaded == ["NBK1"]
    shelf.requests.clear()
    report = download_books(tmp_path, base_url=shelf.base_url, delay=0, limit=2)
    assert report.skipped == ["NBK1"] and report.downloaded == ["NBK3"]
    assert [r[0] for r in shelf.archive_requests()] == ["ab/03/who_NBK3.tar.gz"]
    # a book whose extracted file went missing is fetched again
    (tmp_path / "NBK1" / "ch1.nxml").unlink()
    assert download_books(tmp_path, base_url=shelf.base_url, delay=0, limit=1).downloaded == ["NBK1"]


def test_partial_download_resumes_with_range(shelf: Bookshelf, tmp_path: Path) -> None:
    data = shelf.files["ab/01/who_NBK1.tar.gz"]
    (tmp_path / PARTIAL_DIR).mkdir()
    (tmp_path / PARTIAL_DIR / "NBK1.tar.gz.part").write_bytes(data[:100])
    report = download_books(tmp_path, base_url=shelf.base_url, delay=0, limit=1)
    assert report.downloaded == ["NBK1"]
    assert shelf.archive_requests() == [("ab/01/who_NBK1.tar.gz", "bytes=100-")]
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    assert manifest["NBK1"]["sha256"] == hashlib.sha256(data).hexdigest()
    assert not (tmp_path / PARTIAL_DIR / "NBK1.tar.gz.part").exists()


def test_transient_errors_are_retried(shelf: Bookshelf, tmp_path: Path) -> None:
    shelf.fail = [503, 429]
    report = download_books(tmp_path, base_url=shelf.base_url, delay=0, limit=1)
    assert report.downloaded == ["NBK1"]
    assert [r[0] for r in shelf.requests[:3]] == ["file_list.csv"] * 3


def test_corrupt_archive_is_refused_and_refetched_next_time(shelf: Bookshelf, tmp_path: Path) -> None:
    good = shelf.files["ab/01/who_NBK1.tar.gz"]
    shelf.files["ab/01/who_NBK1.tar.gz"] = good[: len(good) // 2]  # truncated in transit
    report = download_books(tmp_path, base_url=shelf.base_url, delay=0, limit=1)
    assert report.failed and "not a complete .tar.gz" in report.failed[0][1]
    assert not (tmp_path / "NBK1").exists() and not (tmp_path / PARTIAL_DIR / "NBK1.tar.gz.part").exists()
    shelf.files["ab/01/who_NBK1.tar.gz"] = good
    assert download_books(tmp_path, base_url=shelf.base_url, delay=0, limit=1).downloaded == ["NBK1"]


@pytest.mark.parametrize("archive", [
    targz({"NBK1/ch1.nxml": b"<a/>", "../../escape.nxml": b"<evil/>"}),
    targz({"/tmp/abs-escape.nxml": b"<evil/>"}),
    targz({"NBK1/ch1.nxml": b"<a/>"}, symlink=("NBK1/link.nxml", "../../../etc/passwd")),
])
def test_path_traversal_in_archive_is_refused(shelf: Bookshelf, tmp_path: Path, archive: bytes) -> None:
    shelf.files["ab/01/who_NBK1.tar.gz"] = archive
    out = tmp_path / "out"
    report = download_books(out, base_url=shelf.base_url, delay=0, limit=1)
    assert report.failed and "unsafe path" in report.failed[0][1]
    assert not (out / "NBK1").exists()
    assert not list(tmp_path.rglob("escape.nxml")) and not Path("/tmp/abs-escape.nxml").exists()


def test_cli_download_exit_codes(shelf: Bookshelf, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nxml"
    args = ["guidelines", "download", "--out", str(out), "--base-url", shelf.base_url, "--delay", "0"]
    assert main([*args, "--limit", "2"]) == 0
    assert "2 downloaded" in capsys.readouterr().out
    assert main([*args, "--publisher", "Other Press"]) == 0
    assert (out / "NBK2" / "ch1.nxml").is_file()
    shelf.files["ab/04/who_NBK4.tar.gz"] = b"garbage"
    assert main(args) == 1  # NBK4 failed, the rest were already there
    assert "1 failed" in capsys.readouterr().out
    assert main([*args, "--limit", "0"]) == 2
