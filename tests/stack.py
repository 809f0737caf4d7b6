"""The whole stack on one machine: nginx in front of N ``hanamikoji serve`` instances on
loopback, all on one database (docs/deploy.md).

One implementation of it, for ``scripts/stack`` (a demo: this file's :func:`main`),
tests/test_web_deploy.py and ``benchmarks/server.py --instances N``. nginx runs the site
config shipped in deploy/nginx.conf, its placeholders filled in (:func:`render_site`),
inside a small main config of its own (:func:`main_config`: the pid file, logs and
temporary files in one directory), as ``nginx -p DIR -c DIR/nginx.conf`` in the
foreground: nothing of nginx's system install is used or needed but the program.

Only the standard library: ``scripts/stack`` runs in a venv with the web extra alone.

>>> site = render_site(listen="127.0.0.1:8080", server_name="localhost",
...                    ports=[8001, 8002], cache_dir=Path("/tmp/cache"))
>>> print("\\n".join(line for line in site.splitlines() if "127.0.0.1:800" in line))
    server 127.0.0.1:8001;
    server 127.0.0.1:8002;
>>> "listen 127.0.0.1:8080;" in site and "{{" not in site
True
"""

from __future__ import annotations

import argparse
import contextlib
import grp
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

__all__ = [
    "SITE_TEMPLATE",
    "Instance",
    "Stack",
    "find_nginx",
    "free_port",
    "main_config",
    "render_site",
]

ROOT = Path(__file__).resolve().parent.parent
SITE_TEMPLATE = ROOT / "deploy" / "nginx.conf"
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
START_SECONDS = 30.0


def find_nginx() -> str | None:
    """The nginx program: on the PATH, or where Debian puts it (/usr/sbin is not on
    every user's PATH)."""
    found = shutil.which("nginx")
    if found is None and os.access("/usr/sbin/nginx", os.X_OK):
        found = "/usr/sbin/nginx"
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def render_site(
    *,
    listen: str,
    server_name: str,
    ports: Sequence[int],
    cache_dir: Path,
    template: str | None = None,
) -> str:
    """deploy/nginx.conf (or ``template``) with its placeholders filled in: nginx listens
    on ``listen`` as ``server_name`` in front of the instances on 127.0.0.1's ``ports``.
    Raises ``KeyError`` for a placeholder it does not know."""
    if not ports:
        raise ValueError("the stack needs at least one instance")
    values = {
        "listen": listen,
        "server_name": server_name,
        "instances": "\n    ".join(f"server 127.0.0.1:{port};" for port in ports),
        "cache_dir": str(cache_dir),
    }
    text = SITE_TEMPLATE.read_text(encoding="utf-8") if template is None else template
    return PLACEHOLDER.sub(lambda match: values[match.group(1)], text)


def main_config(directory: Path, site: Path, *, user: str | None = None) -> str:
    """nginx's main config for a stack in ``directory``: what Debian's /etc/nginx/nginx.conf
    holds (processes, connections, logs, temporary files), all in ``directory``, around
    the site file ``site``. ``user``: whom the workers run as (only for a root master)."""
    lines = [
        "# Written by tests/stack.py for one stack; the site is deploy/nginx.conf rendered.",
        *([f"user {user};"] if user else []),
        "worker_processes auto;",
        # A game is two browser sockets and two to the instances: 1,000 games, 4,000.
        "worker_rlimit_nofile 32768;",
        f"pid {directory / 'nginx.pid'};",
        f"error_log {directory / 'error.log'} warn;",
        "events {",
        "    worker_connections 16384;",
        "}",
        "http {",
        "    default_type application/octet-stream;",
        f"    access_log {directory / 'access.log'};",
        f"    client_body_temp_path {directory / 'temp' / 'body'};",
        f"    proxy_temp_path {directory / 'temp' / 'proxy'};",
        f"    fastcgi_temp_path {directory / 'temp' / 'fastcgi'};",
        f"    uwsgi_temp_path {directory / 'temp' / 'uwsgi'};",
        f"    scgi_temp_path {directory / 'temp' / 'scgi'};",
        f"    include {site};",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _process_children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
    return found


def _tail(path: Path, lines: int = 20) -> str:
    if not path.exists():
        return ""
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def _answers(url: str, host: str | None = None) -> bool:
    """Whether ``GET url`` answers 200 (with ``host`` as the Host header if given)."""
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=1) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


class Instance:
    """One ``hanamikoji serve`` on 127.0.0.1:``port``, its output in ``log_path``."""

    def __init__(self, port: int, command: list[str], log_path: Path) -> None:
        self.port = port
        self.command = command
        self.log_path = log_path
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None, "the instance is not running"
        return self.process.pid

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def launch(self) -> None:
        """Start it (:meth:`wait_ready` waits until it answers)."""
        with self.log_path.open("ab") as log:
            # A session of its own: Ctrl-C in a terminal reaches the stack, which then
            # stops each instance once, in order.
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, deadline: float) -> None:
        assert self.process is not None
        while not _answers(f"{self.url}/healthz"):
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the instance on port {self.port} stopped with status"
                    f" {self.process.returncode}:\n{_tail(self.log_path)}"
                )
            if time.monotonic() > deadline:
                raise RuntimeError(f"the instance on port {self.port} did not start")
            time.sleep(0.05)

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL, as a crash would: no goodbye to anyone, no cleanup."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def terminate(self) -> None:
        """Ask it to stop (SIGTERM); :meth:`stop` waits for it."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def stop(self) -> None:
        if self.process is None:
            return
        self.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


class Stack:
    """nginx on ``listen`` (a free loopback port unless given) in front of ``instances``
    ``hanamikoji serve`` processes on free loopback ports (or ``ports``), all on the
    database ``db_url``. Use it as a context manager, or :meth:`start` and :meth:`stop`.

    Args:
        options: more ``hanamikoji serve`` options, for every instance.
        instance_options: more options per instance (the first list for the first).
        server_name: the public host name: nginx's ``server_name``, and each instance's
            ``--allowed-host`` (loopback's names are allowed anyway).
        directory: where the configs, logs and nginx's cache go (a temporary directory,
            removed by :meth:`stop`, unless given).
        python: the interpreter that runs the instances.
    """

    def __init__(
        self,
        db_url: str,
        instances: int = 2,
        *,
        listen: str | None = None,
        ports: Sequence[int] = (),
        options: Sequence[str] = (),
        instance_options: Sequence[Sequence[str]] = (),
        server_name: str = "localhost",
        directory: Path | None = None,
        log_level: str = "warning",
        python: str = sys.executable,
    ) -> None:
        if instances < 1:
            raise ValueError("the stack needs at least one instance")
        if ports and len(ports) != instances:
            raise ValueError(f"{instances} instances need {instances} ports, not {len(ports)}")
        nginx = find_nginx()
        if nginx is None:
            raise RuntimeError("nginx is not installed (Debian: apt-get install nginx)")
        self.nginx = nginx
        self.db_url = db_url
        self.listen = listen or f"127.0.0.1:{free_port()}"
        self.server_name = server_name
        self._own_directory = directory is None
        self.directory = (
            Path(tempfile.mkdtemp(prefix="hanamikoji-stack-")) if directory is None else directory
        )
        self.directory.mkdir(parents=True, exist_ok=True)
        allowed = ["--allowed-host", server_name] if server_name not in ("_", "") else []
        chosen = list(ports) or [free_port() for _ in range(instances)]
        self.instances = []
        for number, port in enumerate(chosen):
            extra = instance_options[number] if number < len(instance_options) else ()
            command = [
                python,
                "-m",
                "hanamikoji.interfaces.web_cli",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                db_url,
                "--log-level",
                log_level,
                # nginx, on this machine: its X-Forwarded-For and -Proto are believed.
                "--trusted-proxy",
                "127.0.0.1",
                *allowed,
                *options,
                *extra,
            ]
            log_path = self.directory / f"instance-{port}.log"
            self.instances.append(Instance(port, command, log_path))
        self.nginx_process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """nginx's address, as a browser would use it."""
        host, _, port = self.listen.rpartition(":")
        if host in ("", "0.0.0.0", "*"):
            host = "127.0.0.1"
        return f"http://{host}:{port}"

    @property
    def nginx_log(self) -> str:
        path = self.directory / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def nginx_pids(self) -> list[int]:
        """nginx's master and its workers."""
        if self.nginx_process is None:
            return []
        return [self.nginx_process.pid, *_process_children(self.nginx_process.pid)]

    def site(self) -> str:
        """deploy/nginx.conf, rendered for this stack."""
        return render_site(
            listen=self.listen,
            server_name=self.server_name,
            ports=[instance.port for instance in self.instances],
            cache_dir=self.directory / "cache",
        )

    def start(self) -> Stack:
        """Start the instances (the first alone: it brings the database's schema up to
        date), then nginx; return when nginx answers. Stops what it started if any of it
        fails (``RuntimeError`` with the log's end)."""
        try:
            deadline = time.monotonic() + START_SECONDS
            first, *others = self.instances
            first.launch()
            first.wait_ready(deadline)
            for instance in others:
                instance.launch()
            for instance in others:
                instance.wait_ready(deadline)
            self._start_nginx(deadline)
        except BaseException:
            self.stop()
            raise
        return self

    def _start_nginx(self, deadline: float) -> None:
        site = self.directory / "hanamikoji.conf"
        site.write_text(self.site(), encoding="utf-8")
        user = None
        if os.geteuid() == 0:
            # nginx's workers leave root for nobody: they must reach the cache and the
            # temporary files (nginx gives those to them) through this directory.
            nobody = pwd.getpwnam("nobody")
            user = f"nobody {grp.getgrgid(nobody.pw_gid).gr_name}"
            self.directory.chmod(0o755)
        config = self.directory / "nginx.conf"
        config.write_text(main_config(self.directory, site, user=user), encoding="utf-8")
        (self.directory / "temp").mkdir(exist_ok=True)
        command = [
            self.nginx,
            "-p",
            str(self.directory),
            "-c",
            str(config),
            "-e",
            str(self.directory / "error.log"),
            "-g",
            "daemon off;",
        ]
        with (self.directory / "nginx.out").open("ab") as out:
            self.nginx_process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        host = self.url.removeprefix("http://")
        while not _answers(f"{self.url}/healthz", host):
            if self.nginx_process.poll() is not None:
                output = _tail(self.directory / "nginx.out") or _tail(self.directory / "error.log")
                raise RuntimeError(
                    f"nginx stopped with status {self.nginx_process.returncode}:\n{output}"
                )
            if time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not answer on {self.url}:\n{self.nginx_log}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop nginx, then every instance (all asked at once, then waited for), and
        remove the stack's directory if it made it."""
        if self.nginx_process is not None:
            if self.nginx_process.poll() is None:
                self.nginx_process.terminate()
            try:
                self.nginx_process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx_process.kill()
                self.nginx_process.wait(timeout=10)
            self.nginx_process = None
        for instance in self.instances:
            instance.terminate()
        for instance in self.instances:
            instance.stop()
        if self._own_directory:
            shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# -- scripts/stack ------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scripts/stack",
        description="Start nginx (deploy/nginx.conf) in front of N `hanamikoji serve`"
        " instances on loopback, all on one database; Ctrl-C stops everything.",
        epilog="Options after -- go to every `hanamikoji serve`, e.g. -- --bot-delay 0.4",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the database every instance uses (PostgreSQL for more than one instance:"
        " postgresql+psycopg://user:password@127.0.0.1:5432/name)",
    )
    parser.add_argument(
        "--instances", type=int, default=2, metavar="N", help="instances (default: 2)"
    )
    parser.add_argument(
        "--listen",
        default="127.0.0.1:8080",
        metavar="ADDRESS",
        help="where nginx listens (default: 127.0.0.1:8080)",
    )
    parser.add_argument(
        "--ports",
        metavar="P1,P2,...",
        help="the instances' loopback ports (default: free ones, or 8001, 8002, ... for"
        " --print-config)",
    )
    parser.add_argument(
        "--server-name",
        default="localhost",
        metavar="NAME",
        help="the public host name (nginx's server_name, each instance's --allowed-host;"
        " default: localhost)",
    )
    parser.add_argument(
        "--cache-dir",
        default="/var/cache/nginx/hanamikoji",
        metavar="DIR",
        help="nginx's static cache, for --print-config (default: /var/cache/nginx/hanamikoji)",
    )
    parser.add_argument(
        "--print-config",
        action="store_true",
        help="print deploy/nginx.conf rendered for these ports, name and address, and stop",
    )
    parser.add_argument("serve_options", nargs="*", help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.instances < 1:
        parser.error("--instances must be at least 1")
    ports = [int(port) for port in args.ports.split(",")] if args.ports else []
    if ports and len(ports) != args.instances:
        parser.error(f"--ports names {len(ports)} ports for {args.instances} instances")
    if args.print_config:
        chosen = ports or [8001 + number for number in range(args.instances)]
        sys.stdout.write(
            render_site(
                listen=args.listen,
                server_name=args.server_name,
                ports=chosen,
                cache_dir=Path(args.cache_dir),
            )
        )
        return 0
    if not args.db:
        parser.error("--db URL is needed (one database for every instance)")
    if args.instances > 1 and not args.db.startswith("postgresql"):
        parser.error(
            "instances share their games through PostgreSQL: --db postgresql+psycopg://..."
        )
    # Ctrl-C stops the stack even where it was started in the background (which ignores
    # SIGINT); SIGTERM (systemd, timeout, kill) stops it too.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    stack = Stack(
        args.db,
        args.instances,
        listen=args.listen,
        ports=ports,
        options=args.serve_options,
        server_name=args.server_name,
        log_level="info",
    )
    print(f"starting {args.instances} instance(s) and nginx in {stack.directory}", flush=True)
    try:
        with stack:
            for instance in stack.instances:
                print(f"  instance {instance.url} (log: {instance.log_path})")
            print(f"Hanamikoji: open {stack.url}/ (Ctrl-C stops everything)", flush=True)
            reported: set[int] = set()
            while stack.nginx_process is not None and stack.nginx_process.poll() is None:
                for instance in stack.instances:
                    if instance.port not in reported and not instance.running():
                        reported.add(instance.port)
                        print(f"instance {instance.url} stopped; nginx uses the others")
                time.sleep(0.5)
            print(f"nginx stopped:\n{stack.nginx_log}", file=sys.stderr)
            return 1
    except KeyboardInterrupt:
        print("stopped")
        return 0
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
