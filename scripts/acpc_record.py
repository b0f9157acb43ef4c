"""Record real ACPC dealer matches as golden files for the kit's ACPC codec tests.

The ACPC server (University of Alberta ``project_acpc_server`` v1.0.42) is not part of this
repository.  Build its ``dealer`` and ``example_player`` into a folder with the server's
``*.game`` files beside them, then::

    python scripts/acpc_record.py --dealer-dir BUILD [--hands 30] [--seed 7] [--out tests/acpc]

For each game below it runs the dealer on loopback with one ``example_player`` per seat, each
connected through a relay in this script that copies every line unchanged and records it.
It writes ``OUT/<label>/``:

* ``seat-<n>.jsonl``: seat n's lines in order, ``["->", line]`` client to dealer (the
  ``VERSION`` line, then replies) and ``["<-", line]`` dealer to client, each with its own
  line ending (JSON keeps the ``\\r``);
* ``dealer.log``: the dealer's log (``STATE`` line per hand, ``SCORE``);
* ``dealer.stdout``, ``dealer.stderr``: what the dealer printed (``TO``/``FROM`` lines);
* ``manifest.json``: the game (as ``sdk.gamedef`` text), the command lines, seed, names,
  exit status.

Games: ``acpc-2pl`` and ``acpc-3pl`` (the server's limit files), ``nolimit-2p-server``
(the server's no-limit file, blinds 50/100, 20,000 chips) and ``acpc-2pn`` (the 2009 values,
blinds 1/2, 400 chips, written from ``sdk.gamedef.ACPC_GAMES``).  The dealer's seed fixes
the cards; the example player seeds its own choices from the clock, so a new recording
plays different actions.  Exit status 1 if a dealer fails or prints a WARNING or ERROR.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import selectors
import socket
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sdk.gamedef import ACPC_GAMES, parse_gamedef

#: label -> (game file name in the dealer's folder, or None to write it from ACPC_GAMES; players)
GAMES: dict[str, tuple[str | None, int]] = {
    "acpc-2pl": ("holdem.limit.2p.reverse_blinds.game", 2),
    "acpc-3pl": ("holdem.limit.3p.game", 3),
    "nolimit-2p-server": ("holdem.nolimit.2p.reverse_blinds.game", 2),
    "acpc-2pn": (None, 2),
}
NAMES = ("alice", "bob", "carol")
CONNECT_TIMEOUT = 20.0


@dataclass
class Recording:
    """One recorded match: what each seat saw and said, and what the dealer wrote."""

    game_file: str
    game_text: str
    dealer_command: list[str]
    player_command: list[str]
    dealer_rc: int
    stdout: str
    stderr: str
    log: str
    seats: list[list[tuple[str, str]]] = field(default_factory=list)
    #: What each example_player printed (it prints only errors).
    player_output: list[str] = field(default_factory=list)


def play(
    dealer_dir: Path,
    game_file: str,
    game_text: str,
    players: int,
    hands: int,
    seed: int,
    label: str,
    workdir: Path,
    commands: Sequence[list[str] | None] = (),
) -> Recording:
    """Run one match of the real dealer and example players, relayed and recorded.

    ``game_text`` is written to ``workdir/game_file``; the dealer and players run in
    ``workdir`` so that every file name in their output is relative.  ``commands`` may
    replace the example player of a seat (by index; None keeps it) with another program's
    command line, where the word ``PORT`` stands for the port to connect to.
    """
    (workdir / game_file).write_text(game_text, encoding="ascii")
    names = list(NAMES[:players])
    dealer_command = [
        "dealer",
        label,
        game_file,
        str(hands),
        str(seed),
        *names,
        "--start_timeout",
        str(int(CONNECT_TIMEOUT * 1000)),
    ]
    player_command = ["example_player", game_file, "127.0.0.1", "PORT"]
    stderr_path = workdir / "dealer.stderr"
    with stderr_path.open("wb") as stderr_file:
        dealer = subprocess.Popen(
            [str(dealer_dir / "dealer"), *dealer_command[1:]],
            cwd=workdir,
            stdout=subprocess.PIPE,
            stderr=stderr_file,
        )
        assert dealer.stdout is not None
        first = dealer.stdout.readline().decode("ascii")
        ports = [int(word) for word in first.split()]
        if len(ports) != players:
            dealer.kill()
            raise RuntimeError(f"the dealer printed {first!r}, not {players} ports")
        links, bots = [], []
        try:
            for seat, port in enumerate(ports):
                listener = socket.create_server(("127.0.0.1", 0))
                listener.settimeout(CONNECT_TIMEOUT)
                relay_port = str(listener.getsockname()[1])
                command = commands[seat] if seat < len(commands) else None
                argv = (
                    [str(dealer_dir / "example_player"), game_file, "127.0.0.1", relay_port]
                    if command is None
                    else [relay_port if word == "PORT" else word for word in command]
                )
                with (workdir / f"player-{seat + 1}.out").open("wb") as out:
                    bots.append(
                        subprocess.Popen(
                            argv,
                            cwd=workdir,
                            stdout=out,
                            stderr=subprocess.STDOUT,
                        )
                    )
                client, _ = listener.accept()
                listener.close()
                upstream = socket.create_connection(("127.0.0.1", port), timeout=CONNECT_TIMEOUT)
                links.append((client, upstream))
            seats = _relay(links)
            rest = dealer.stdout.read().decode("ascii")
            dealer_rc = dealer.wait(timeout=60)
        finally:
            for bot in bots:
                try:
                    bot.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    bot.kill()
            if dealer.poll() is None:
                dealer.kill()
                dealer.wait()
            dealer.stdout.close()
    log_path = workdir / f"{label}.log"
    return Recording(
        game_file=game_file,
        game_text=game_text,
        dealer_command=dealer_command,
        player_command=player_command,
        dealer_rc=dealer_rc,
        stdout=first + rest,
        stderr=stderr_path.read_bytes().decode("ascii"),
        log=log_path.read_text(encoding="ascii") if log_path.exists() else "",
        seats=seats,
        player_output=[
            (workdir / f"player-{seat + 1}.out").read_text(errors="replace")
            for seat in range(players)
        ],
    )


def _relay(links: list[tuple[socket.socket, socket.socket]]) -> list[list[tuple[str, str]]]:
    """Copy whole lines both ways for every seat until all close; return each seat's lines."""
    selector = selectors.DefaultSelector()
    records: list[list[tuple[str, str]]] = [[] for _ in links]
    partial: dict[socket.socket, bytes] = {}
    route: dict[socket.socket, tuple[int, str, socket.socket]] = {}
    for seat, (client, dealer) in enumerate(links):
        for sock in (client, dealer):
            sock.settimeout(None)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            partial[sock] = b""
            selector.register(sock, selectors.EVENT_READ)
        route[client] = (seat, "->", dealer)
        route[dealer] = (seat, "<-", client)
    open_socks = len(route)
    while open_socks:
        events = selector.select(timeout=120)
        if not events:
            raise RuntimeError("no line crossed the relay for 120 s; the match is stuck")
        for key, _ in events:
            sock = cast(socket.socket, key.fileobj)
            seat, arrow, peer = route[sock]
            data = sock.recv(65536)
            if not data:
                if partial[sock]:  # a last line without its ending: keep and pass it on
                    records[seat].append((arrow, partial[sock].decode("ascii")))
                    peer.sendall(partial[sock])
                selector.unregister(sock)
                open_socks -= 1
                with contextlib.suppress(OSError):  # the peer may be gone already
                    peer.shutdown(socket.SHUT_WR)
                continue
            lines = (partial[sock] + data).split(b"\n")
            partial[sock] = lines.pop()
            for line in lines:
                records[seat].append((arrow, line.decode("ascii") + "\n"))
            if lines:
                peer.sendall(b"".join(line + b"\n" for line in lines))
    for client, dealer in links:
        client.close()
        dealer.close()
    return records


def problems(recording: Recording) -> list[str]:
    """What is wrong with a recorded match: a failed dealer, its WARNING/ERROR lines, or
    anything an example player printed."""
    found = [f"the dealer exited with status {recording.dealer_rc}"] if recording.dealer_rc else []
    found += [
        line
        for line in (recording.stdout + recording.stderr).splitlines()
        if "WARNING" in line or "ERROR" in line
    ]
    found += [
        f"example_player {seat}: {line}"
        for seat, output in enumerate(recording.player_output, start=1)
        for line in output.splitlines()
    ]
    return found


def write(recording: Recording, directory: Path, label: str, hands: int, seed: int) -> None:
    """The golden files of one recording (see the module docstring)."""
    directory.mkdir(parents=True, exist_ok=True)
    for seat, lines in enumerate(recording.seats, start=1):
        with (directory / f"seat-{seat}.jsonl").open("w", encoding="ascii", newline="\n") as out:
            for arrow, line in lines:
                out.write(json.dumps([arrow, line]) + "\n")
    for name, text in (
        ("dealer.log", recording.log),
        ("dealer.stdout", recording.stdout),
        ("dealer.stderr", recording.stderr),
    ):
        (directory / name).write_bytes(text.encode("ascii"))
    manifest = {
        "label": label,
        "game_file": recording.game_file,
        "gamedef": parse_gamedef(recording.game_text).to_text(),
        "hands": hands,
        "seed": seed,
        "names": list(NAMES[: len(recording.seats)]),
        "dealer_command": recording.dealer_command,
        "player_command": recording.player_command,
        "dealer_rc": recording.dealer_rc,
        "server": "project_acpc_server v1.0.42 (public fork jblespiau/project_acpc_server)",
        "note": "The dealer's seed fixes the cards; example_player seeds its choices from the "
        "clock. Each player reached the dealer through a relay that recorded its lines.",
    }
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")


def game_text(dealer_dir: Path, label: str) -> tuple[str, str]:
    """(file name, text) of a game: the server's file, or the 2009 preset from sdk.gamedef."""
    file_name, _ = GAMES[label]
    if file_name is None:
        return f"{label}.game", ACPC_GAMES[label].to_text()
    return file_name, (dealer_dir / file_name).read_text(encoding="ascii")


def main(argv: list[str]) -> int:
    """Record every game; print one line per match; 1 if any match had a problem."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--dealer-dir",
        type=Path,
        default=os.environ.get("POKERBOTS_ACPC_DEALER"),
        help="the folder with dealer, example_player and the server's .game files "
        "(default: $POKERBOTS_ACPC_DEALER)",
    )
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("tests/acpc"))
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    args = parser.parse_args(argv)
    if args.dealer_dir is None:
        parser.error("give --dealer-dir or set POKERBOTS_ACPC_DEALER")
    failed = False
    for label in args.game or list(GAMES):
        file_name, text = game_text(args.dealer_dir, label)
        with tempfile.TemporaryDirectory(prefix="acpc-record-") as tmp:
            recording = play(
                args.dealer_dir,
                file_name,
                text,
                GAMES[label][1],
                args.hands,
                args.seed,
                label,
                Path(tmp),
            )
        found = problems(recording)
        failed |= bool(found)
        write(recording, args.out / label, label, args.hands, args.seed)
        print(
            json.dumps(
                {
                    "label": label,
                    "dealer": " ".join(recording.dealer_command),
                    "rc": recording.dealer_rc,
                    "stdout": recording.stdout.splitlines(),
                    "problems": found,
                }
            )
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
