#!/usr/bin/env python3
"""Writes framelab's manual page (mdoc) from the command tree the binary describes itself.

Usage: man-page.py FRAMELAB_BINARY OUTPUT_PAGE

`framelab --experimental-dump-help` prints every command, option and help text as JSON
(swift-argument-parser's own description of the tool, the same text `--help` prints). This
script lays it out as one mdoc page: NAME, SYNOPSIS, DESCRIPTION, the global options, then
every visible subcommand with its options. It replaces `swift package generate-manual`,
which dropped every non-ASCII character ("B − A" read "B  A") and listed hidden commands;
here non-ASCII characters become groff's \\[uXXXX] escapes and hidden commands and options
are left out.
"""
import datetime
import json
import subprocess
import sys


def escape(text: str) -> str:
    """One line of text for mdoc: backslashes escaped, non-ASCII as \\[uXXXX], and a
    leading '.' or "'" guarded so groff does not read the line as a request."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\e")
        elif ord(ch) > 0x7F:
            out.append(f"\\[u{ord(ch):04X}]")
        else:
            out.append(ch)
    line = "".join(out)
    return "\\&" + line if line[:1] in (".", "'") else line


def prose(text: str) -> list[str]:
    """A help text as mdoc lines: blank lines become paragraph breaks, and runs of indented
    lines (the tables and lists in the discussions) stay as written in a literal display."""
    lines, block = [], []

    def flush():
        if block:
            lines.extend([".Bd -literal -offset indent", *block, ".Ed"])
            block.clear()

    for raw in text.strip("\n").split("\n"):
        if raw.strip() == "":
            flush()
            lines.append(".Pp")
        elif raw.startswith(" "):
            block.append(escape(raw.rstrip()))
        else:
            flush()
            lines.append(escape(raw.strip()))
    flush()
    return lines


def visible(items):
    return [i for i in items if i.get("shouldDisplay", True)]


def argument_head(arg) -> str:
    """The .It line of one argument: `Fl -out Ar out`, `Fl q , Fl -quiet`, `Ar file`."""
    value = escape(arg.get("valueName", ""))
    if arg["kind"] == "positional":
        return f"Ar {value}" + (" ..." if arg.get("isRepeating") else "")
    flags = []
    for name in arg.get("names", []):
        dash = "-" if name["kind"] == "long" else ""  # mdoc's Fl adds the first dash
        flags.append(f"Fl {dash}{escape(name['name'])}")
    head = " , ".join(flags)
    if arg["kind"] == "option":
        head += f" Ar {value}"
    return head


def argument_lines(arguments) -> list[str]:
    shown = [a for a in visible(arguments) if a.get("valueName") not in ("help", "version") or a["kind"] == "positional"]
    if not shown:
        return []
    lines = [".Bl -tag -width 6n"]
    for arg in shown:
        lines.append(".It " + argument_head(arg))
        lines.extend(prose(arg.get("abstract", "")))
        if arg.get("discussion"):
            lines.extend(prose(arg["discussion"]) if isinstance(arg["discussion"], str) else [])
        if "defaultValue" in arg:
            lines.append(escape(f"(default: {arg['defaultValue']})"))
    lines.append(".El")
    return lines


def command_lines(command, path: list[str]) -> list[str]:
    """One subcommand as an item of the COMMANDS list, its subcommands nested inside."""
    name = command["commandName"]
    lines = [f".It Em {escape(name)}"]
    lines.extend(prose(command.get("abstract", "")))
    if command.get("discussion"):
        lines.append(".Pp")
        lines.extend(prose(command["discussion"]))
    lines.extend(argument_lines(command.get("arguments", [])))
    subs = visible(command.get("subcommands", []))
    if subs:
        lines.append(".Bl -tag -width 6n")
        for sub in subs:
            lines.extend(command_lines(sub, path + [name]))
        lines.append(".El")
    return lines


def page(root) -> str:
    date = datetime.date.today().strftime("%B %-d, %Y")
    lines = [f".Dd {date}", ".Dt FRAMELAB 1", ".Os", ".Sh NAME", ".Nm framelab",
             ".Nd " + escape(root.get("abstract", "")), ".Sh SYNOPSIS", ".Nm",
             ".Ar subcommand", ".Op Ar options ...", ".Sh DESCRIPTION"]
    lines.extend(prose(root.get("discussion", "") or root.get("abstract", "")))
    lines.append(".Pp")
    lines.append("Every subcommand takes")
    lines.append(".Fl h , Fl -help")
    lines.append("for its own help.")
    lines.append(".Sh OPTIONS")
    lines.extend(argument_lines(root.get("arguments", [])) or [])
    lines.extend([".Bl -tag -width 6n", ".It Fl -version", "Show the version.", ".It Fl h , Fl -help",
                  "Show help information.", ".El", ".Sh COMMANDS", ".Bl -tag -width 6n"])
    for sub in visible(root.get("subcommands", [])):
        lines.extend(command_lines(sub, []))
    lines.extend([".El", ".Sh SEE ALSO", "The documentation in the docs/ folder of the Framelab source tree."])
    # Two .Pp in a row (or one before a list) make mdoc warn; keep the first.
    tidy = []
    for line in lines:
        if line == ".Pp" and tidy and tidy[-1] in (".Pp", ".Sh DESCRIPTION"):
            continue
        tidy.append(line)
    return "\n".join(tidy) + "\n"


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: man-page.py FRAMELAB_BINARY OUTPUT_PAGE", file=sys.stderr)
        return 2
    binary, output = sys.argv[1], sys.argv[2]
    dump = subprocess.run([binary, "--experimental-dump-help"], capture_output=True, text=True)
    if dump.returncode != 0:
        print(f"man-page: {binary} --experimental-dump-help failed: {dump.stderr.strip()}", file=sys.stderr)
        return 1
    with open(output, "w", encoding="utf-8") as f:
        f.write(page(json.loads(dump.stdout)["command"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
