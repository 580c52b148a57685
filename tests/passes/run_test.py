#!/usr/bin/env python3
"""Runs the RUN lines of one pass test (tests/passes/README.md), as LLVM's lit does.

    run_test.py [--tool NAME=PATH]... TEST.ll
    run_test.py --every-pass-tested MOSAIC_OPT FOLDER

Each line of TEST.ll holding `RUN:` gives a shell command (a line ending in
a backslash continues on the next RUN: line).  Before it runs:
  %s  becomes the test file's path, %S its folder, %t a scratch file's path
      (%t.x and the like are scratch files too), %% a percent sign;
  a word equal to a NAME given with --tool (mosaic-opt, FileCheck, not)
      becomes its PATH.
The commands run one after another with bash -o pipefail (a failure
anywhere in a pipe fails it) from a scratch folder; the test passes when
every one exits 0.  A failing command is printed with its output.

--every-pass-tested fails when a pass that changes code (`mosaic-opt
--list`) has no test FOLDER/<pass>.ll.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def run_lines(path):
    """The test's commands, continuation lines joined."""
    commands, pending = [], ""
    with open(path) as f:
        for line in f:
            at = line.find("RUN:")
            if at < 0:
                continue
            text = line[at + 4:].strip()
            if text.endswith("\\"):
                pending += text[:-1] + " "
                continue
            commands.append(pending + text)
            pending = ""
    if pending:
        sys.exit(f"{path}: the last RUN: line ends with a backslash")
    return commands


def substitute(command, path, scratch, tools):
    values = {"%s": path, "%S": os.path.dirname(path), "%t": os.path.join(scratch, "t"), "%%": "%"}
    command = re.sub(r"%[sSt%]", lambda m: values[m.group(0)], command)
    # tool names as whole words, not inside a path or an option (--tool=FileCheck)
    for name, tool in tools.items():
        command = re.sub(r"(?<![\w/.=-])" + re.escape(name) + r"(?![\w/.=-])", lambda m: tool, command)
    return command


def every_pass_tested(mosaic_opt, folder):
    listed = subprocess.run([mosaic_opt, "--list"], check=True, capture_output=True, text=True).stdout
    changing = [line.split()[0] for line in listed.splitlines() if line.split()[2:3] == ["changes"]]
    missing = [p for p in changing if not os.path.exists(os.path.join(folder, p + ".ll"))]
    for p in missing:
        print(f"the pass {p} changes code and has no test {p}.ll")
    print(f"{len(changing) - len(missing)} of the {len(changing)} passes that change code have a test")
    return 1 if missing else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tool", action="append", default=[], metavar="NAME=PATH")
    parser.add_argument("--every-pass-tested", nargs=2, metavar=("MOSAIC_OPT", "FOLDER"))
    parser.add_argument("test", nargs="?")
    args = parser.parse_args()
    if args.every_pass_tested:
        return every_pass_tested(*args.every_pass_tested)
    if not args.test:
        parser.error("no test file")
    tools = {name: os.path.abspath(path) if os.sep in path else path
             for name, path in (t.split("=", 1) for t in args.tool)}  # (the commands run elsewhere)
    path = os.path.abspath(args.test)
    commands = run_lines(path)
    if not commands:
        sys.exit(f"{path}: no RUN: line")
    with tempfile.TemporaryDirectory(prefix="mosaic-passes-") as scratch:
        for n, command in enumerate(commands, 1):
            command = substitute(command, path, scratch, tools)
            p = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=scratch, capture_output=True,
                               text=True, errors="replace")
            if p.returncode != 0:
                print(f"RUN {n} failed (exit status {p.returncode}):\n  {command}\n{p.stdout}{p.stderr}")
                return 1
            print(f"RUN {n}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
