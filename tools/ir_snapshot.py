#!/usr/bin/env python3
"""The generated code of a build, as text, to compare two builds.

    tools/ir_snapshot.py snapshot BUILD OUT [--jobs N] [--size tiny|quick|full] [--only REGEX]
    tools/ir_snapshot.py compare A B [--diff LINES]

`snapshot` runs, with MOSAIC_DUMP_IR=1 MOSAIC_CACHE=0, every case of the
compiler tests (the ctest tests whose program lies in BUILD/tests/compiler,
each with its ctest environment), every benchmark of the benchmark runner
(one at a time, Mosaic alone, the size given: tiny by default) and the other
programs of bench/ at small sizes, and keeps what each printed of LLVM IR
(each program's module before and after optimisation, in build order, the
function definitions of each in name order: an order of definitions alone
is no difference) in OUT/<group>/<name>.ll, one file per
program run.  Paths of BUILD and of the
source tree are replaced by <build> and <source>.  What a run printed besides
is in OUT/logs/ and its exit status in OUT/status.txt (neither compared).

`compare` lists the .ll files that differ between two snapshots, or that one
has and the other not, and exits 1 if any does (0 when all are identical);
--diff N prints the first N lines of each difference (diff -u).

Both builds must be made and snapshotted on the same machine: the code is
made for the host's processor.  Cases that build programs on several threads
at once print their modules interleaved; they are left out (SKIPPED_CASES).
"""
import argparse
import concurrent.futures
import difflib
import json
import os
import re
import subprocess
import sys

# Cases that build on several threads at once: their dumps interleave line
# by line (llvm::errs() is unbuffered), so their text is not reproducible.
# The kernels they build are built alone by other cases.
SKIPPED_CASES = {"concurrent_builds"}

# The programs of bench/ besides the runner, with arguments that make them
# quick (their kernels are built whatever the size).  Not `builds`: its
# sources carry a salt from the clock, so no two runs build one program.
BENCH_PROGRAMS = {
    "kernels": ["1", "1"],
    "images": ["256", "1"],
    "subgroups": ["1", "1"],
    "quicksort": ["4096", "1"],
    "enqueue_overhead": ["100", "1"],
    "bandwidth": ["1", "1"],
}

MODULE_START = "; ModuleID = "


def compiler_tests(build):
    """(ctest name, program, selector, environment) of each compiler test."""
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, check=True, capture_output=True, text=True)
    prefix = os.path.join(os.path.abspath(build), "tests", "compiler") + os.sep
    tests = []
    for t in json.loads(out.stdout)["tests"]:
        command = t.get("command") or []
        if len(command) != 2 or not command[0].startswith(prefix):
            continue
        env = {}
        for p in t.get("properties", []):
            if p["name"] == "ENVIRONMENT":
                env.update(v.split("=", 1) for v in p["value"])
        tests.append((t["name"], command[0], command[1], env))
    return tests


def cases_of(program, selector):
    """The cases `program selector` runs: the group's, or the case itself."""
    listed = subprocess.run([program, "--list"], check=True, capture_output=True, text=True).stdout.splitlines()
    cases = [c.split("/", 1)[1] for c in listed if c.startswith(selector + "/")]
    return cases or [selector]


def jobs_of(build, size):
    """Every run of a snapshot: (group, name, command, environment, cwd)."""
    build = os.path.abspath(build)
    runs = []
    for name, program, selector, env in compiler_tests(build):
        for case in cases_of(program, selector):
            if case not in SKIPPED_CASES:
                runs.append(("compiler", f"{name}.{case}", [program, case], env, os.path.dirname(program)))
    bench = os.path.join(build, "bench")
    loader = {"OCL_ICD_VENDORS": os.path.join(build, "mosaic.icd")}
    runner = os.path.join(bench, "bench_runner")
    names = subprocess.run([runner, "--list"], check=True, capture_output=True, text=True).stdout
    for line in names.splitlines():
        if line.strip():
            b = line.split()[0]
            command = [runner, "--size", size, "--reps", "1", "--threads", "2", "--platforms", "Mosaic", "--only", b]
            runs.append(("bench", b, command, loader, bench))
    for program, args in BENCH_PROGRAMS.items():
        runs.append(("bench", "program_" + program, [os.path.join(bench, program)] + args, loader, bench))
    return runs


# The lines of a module outside function bodies (LLVM's printer writes each
# of these entities on one line); within a body, every line up to "}".
TOP_LEVEL = re.compile(r"(|;.*|[%@!$#].*|define .*|declare .*|attributes .*|target .*|source_filename .*"
                       r"|module asm .*|uselistorder.*)\n?")


def in_name_order(module):
    """One module with its function definitions in the order of their names.

    Where the compiler adds a function (the .ctx copies of called
    functions, calls.c) changes no code, and builds of Mosaic older than
    calls.c's walk in the module's order added them in an order that
    varied from run to run: snapshots compare the same either way.  Each
    definition (its comment lines, `define ... {` to `}`, the blank line
    after) moves; the other lines stay where they are.
    """
    lines = module.splitlines(keepends=True)
    items, i = [], 0  # (name or None, text)
    while i < len(lines):
        j = i
        while j < len(lines) and lines[j].startswith("; Function Attrs:"):
            j += 1
        if j < len(lines) and lines[j].startswith("define ") and lines[j].rstrip().endswith("{"):
            end = j
            while end < len(lines) and lines[end] != "}\n":
                end += 1
            end = min(end + 1, len(lines))
            if end < len(lines) and lines[end] == "\n":
                end += 1
            name = re.search(r"@([-\w.$\"]+)\(", lines[j])
            items.append((name.group(1) if name else lines[j], "".join(lines[i:end])))
            i = end
        else:
            items.append((None, "".join(lines[i:j + 1])))
            i = j + 1
    functions = iter(text for name, text in sorted(item for item in items if item[0] is not None))
    return "".join(text if name is None else next(functions) for name, text in items)


def canonical(text):
    """Every module of a snapshot's file in name order (a snapshot taken
    before the order was made is compared as if it had been)."""
    modules = text.split(MODULE_START)
    return modules[0] + "".join(MODULE_START + in_name_order(m) for m in modules[1:])


def ir_text(stderr, build, source):
    """The modules printed in stderr, paths made neutral, and the other text.

    A module starts at "; ModuleID = " (where the program's own text before
    it on the line ends without a newline) and ends before the first line
    outside a function body that is not IR: what the program printed after.
    """
    ir, other, inside, body = [], [], False, False
    for line in stderr.splitlines(keepends=True):
        at = line.find(MODULE_START)
        if at >= 0:
            other.append(line[:at])
            line, inside, body = line[at:], True, False
        if inside and not body and not TOP_LEVEL.fullmatch(line):
            inside = False
        if not inside:
            other.append(line)
            continue
        ir.append(line)
        if body:
            body = line != "}\n"
        elif line.startswith("define "):
            body = line.rstrip().endswith("{")
    text = canonical("".join(ir))
    for path, name in ((build, "<build>"), (source, "<source>")):
        text = text.replace(path, name)
    return text, "".join(other)


def snapshot_one(run, out, build, source):
    group, name, command, env, cwd = run
    environment = dict(os.environ, MOSAIC_DUMP_IR="1", MOSAIC_CACHE="0", **env)
    environment.pop("MOSAIC_DEBUG", None)  # its messages would mix with the IR
    try:
        p = subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True,
                           errors="replace", timeout=3600)
        rc, stdout, stderr = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, stdout, stderr = "timeout", e.stdout or "", e.stderr or ""
        stdout, stderr = [s.decode(errors="replace") if isinstance(s, bytes) else s for s in (stdout, stderr)]
    ir, other = ir_text(stderr, build, source)
    with open(os.path.join(out, group, name + ".ll"), "w") as f:
        f.write(ir)
    with open(os.path.join(out, "logs", f"{group}.{name}.txt"), "w") as f:
        f.write(f"$ {' '.join(command)}\n{stdout}{other}")
    return f"{group}/{name} {rc} {ir.count(MODULE_START)} modules"


def source_of(build):
    """The source tree BUILD was configured from (its CMakeCache.txt)."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:"):
                return line.split("=", 1)[1].strip()
    sys.exit(f"{build}: no CMAKE_HOME_DIRECTORY in CMakeCache.txt (not a build folder?)")


def snapshot(args):
    build = os.path.abspath(args.build)
    source = source_of(build)
    runs = [r for r in jobs_of(build, args.size) if not args.only or re.search(args.only, f"{r[0]}/{r[1]}")]
    for d in ("compiler", "bench", "logs"):
        os.makedirs(os.path.join(args.out, d), exist_ok=True)
    status = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for line in pool.map(lambda r: snapshot_one(r, args.out, build, source), runs):
            print(line, flush=True)
            status.append(line)
    with open(os.path.join(args.out, "status.txt"), "w") as f:
        f.write("".join(s + "\n" for s in sorted(status)))
    return 0


def ll_files(folder):
    found = set()
    for root, _, files in os.walk(folder):
        found.update(os.path.relpath(os.path.join(root, f), folder) for f in files if f.endswith(".ll"))
    return found


def compare(args):
    a, b = ll_files(args.a), ll_files(args.b)
    differ = 0
    for name in sorted(a | b):
        if name not in b or name not in a:
            print(f"only in {args.a if name in a else args.b}: {name}")
            differ += 1
            continue
        with open(os.path.join(args.a, name)) as fa, open(os.path.join(args.b, name)) as fb:
            ta, tb = canonical(fa.read()), canonical(fb.read())
        if ta != tb:
            print(f"differs: {name}")
            differ += 1
            if args.diff:
                diff = difflib.unified_diff(ta.splitlines(True), tb.splitlines(True), "a/" + name, "b/" + name)
                for i, line in zip(range(args.diff), diff):
                    sys.stdout.write(line)
    print(f"{len(a | b)} programs, {differ} differ")
    return 1 if differ else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("snapshot", help="dump the IR of every compiler test case and benchmark of BUILD into OUT")
    s.add_argument("build")
    s.add_argument("out")
    s.add_argument("--jobs", type=int, default=1, help="programs run at once (default 1)")
    s.add_argument("--size", default="tiny", choices=("tiny", "quick", "full"), help="the benchmark runner's size")
    s.add_argument("--only", help="a regular expression: only the runs group/name it matches")
    c = sub.add_parser("compare", help="list the programs whose IR differs between two snapshots")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("--diff", type=int, default=0, metavar="LINES", help="print the first LINES of each diff")
    args = parser.parse_args()
    return snapshot(args) if args.mode == "snapshot" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
