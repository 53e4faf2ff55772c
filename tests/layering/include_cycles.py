#!/usr/bin/env python3
"""Include cycles and layering of the runtime and the compiler (issue 13: "no include cycle
among the compiler's folders or the runtime's files").

Three graphs, each searched for cycles (strongly connected components of more than one node):

  runtime           the runtime's modules. A header and the source file of the same name are
                    one module (include/stencilc/output.h and src/core/output.cpp are "output";
                    include/stencilc/cpu/engine.h and src/cpu/engine.cpp are "cpu/engine"); an
                    edge A -> B where a file of A includes a header of B. Two modules whose
                    files include each other's headers (output.cpp including program.h and
                    program.cpp including output.h) are a cycle though no header includes
                    itself. Also the libraries' layering: a core file includes no engine's
                    header (stencilc/cpu/..., later gpu/, mpi/), an engine includes core and its
                    own headers only, and nothing in runtime/ includes a header that is not the
                    runtime's (the compiler's, say).
  compiler-folders  the compiler's folders (compiler/driver, compiler/codegen, ...): an edge
                    A -> B where a file in A includes one in B.
  compiler-files    the compiler's modules, named like the runtime's (driver/build.h and
                    driver/build.cpp are "driver/build"), within and across folders.

Every graph is checked and reported; only those named by --enforce fail the run (exit 1).
ctest runs `include_cycles.py --enforce runtime` (tests/layering/CMakeLists.txt); add
compiler-folders (and compiler-files) there once the compiler has none.

  python3 tests/layering/include_cycles.py                      # report all, fail on none
  python3 tests/layering/include_cycles.py --edges              # and print the graphs
  python3 tests/layering/include_cycles.py --enforce runtime,compiler-folders
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCOPES = ("runtime", "compiler-folders", "compiler-files")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SOURCES = (".h", ".hpp", ".cpp", ".cc")


def sources_under(top):
    """The C++ files below `top`, as paths relative to it, sorted."""
    found = []
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith(SOURCES):
                found.append(os.path.relpath(os.path.join(dirpath, f), top))
    return found


def includes_of(path):
    """(line number, delimiter, included name) of every #include in a file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield n, m.group(1), m.group(2)


class Graph:
    """Nodes, and edges with the include lines that make them."""

    def __init__(self):
        self.nodes = set()
        self.edges = {}  # (a, b) -> ["file:line: #include ...", ...]

    def add(self, a, b, why):
        self.nodes.update((a, b))
        if a != b:
            self.edges.setdefault((a, b), []).append(why)

    def cycles(self):
        """The strongly connected components of more than one node (Tarjan), sorted."""
        succ = {n: sorted(b for (a, b) in self.edges if a == n) for n in self.nodes}
        index, low, stack, on_stack, comps = {}, {}, [], set(), []

        def visit(v):
            index[v] = low[v] = len(index)
            stack.append(v)
            on_stack.add(v)
            for w in succ[v]:
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))

        for n in sorted(self.nodes):
            if n not in index:
                visit(n)
        return sorted(comps)

    def describe(self, comp):
        """The edges inside a component, each with the include lines behind it."""
        lines = []
        for (a, b), why in sorted(self.edges.items()):
            if a in comp and b in comp:
                lines.append(f"    {a} -> {b}")
                lines.extend(f"      {w}" for w in why)
        return lines


def runtime_graph(root):
    """The runtime's module graph, and the layering violations found on the way."""
    rt = os.path.join(root, "runtime")
    inc = os.path.join(rt, "include", "stencilc")
    graph, problems = Graph(), []
    files = []  # (path relative to root, module)
    for rel in sources_under(inc):
        files.append((os.path.join("runtime/include/stencilc", rel), os.path.splitext(rel)[0]))
    src = os.path.join(rt, "src")
    for rel in sources_under(src):
        lib, _, rest = rel.partition(os.sep)
        if not rest:
            problems.append(f"runtime/src/{rel}: a source file outside a library's folder "
                            "(runtime/src/core/, runtime/src/cpu/, ...)")
            lib, rest = "core", lib
        stem = os.path.splitext(rest)[0]
        files.append((os.path.join("runtime/src", rel), stem if lib == "core" else f"{lib}/{stem}"))
    for path, module in files:
        graph.nodes.add(module)
        lib = library_of(module)
        for n, delim, name in includes_of(os.path.join(root, path)):
            where = f"{path}:{n}: #include {delim}{name}{'>' if delim == '<' else delim}"
            if not name.startswith("stencilc/"):
                if delim == '"':
                    problems.append(f"{where}: not a runtime header")
                continue
            target = os.path.splitext(name[len("stencilc/"):])[0]
            if not os.path.isfile(os.path.join(inc, name[len("stencilc/"):])):
                problems.append(f"{where}: no such runtime header")
                continue
            graph.add(module, target, where)
            their = library_of(target)
            if their != lib and their != "core":
                problems.append(f"{where}: the {lib} library includes a header of the {their} "
                                "library (core includes no engine; an engine includes core and "
                                "itself only)")
    return graph, problems


def library_of(module):
    """core for "output", cpu for "cpu/engine"."""
    return module.split("/")[0] if "/" in module else "core"


def compiler_graphs(root):
    """The compiler's folder graph and module graph."""
    top = os.path.join(root, "compiler")
    folders, modules = Graph(), Graph()
    for rel in sources_under(top):
        if os.sep not in rel:
            continue  # nothing at the top today; a file there belongs to no folder
        module = os.path.splitext(rel)[0]
        folder = rel.split(os.sep)[0]
        folders.nodes.add(folder)
        modules.nodes.add(module)
        here = os.path.dirname(os.path.join(top, rel))
        for n, delim, name in includes_of(os.path.join(top, rel)):
            if delim != '"':
                continue
            # As the compiler resolves them: the including file's folder, then compiler/.
            for base in (here, top):
                target = os.path.normpath(os.path.join(base, name))
                if os.path.isfile(target):
                    break
            else:
                continue  # the runtime's, a generated parser's, a library's
            trel = os.path.relpath(target, top)
            if trel.startswith(".."):
                continue
            where = f"compiler/{rel}:{n}: #include \"{name}\""
            folders.add(folder, trel.split(os.sep)[0], where)
            modules.add(module, os.path.splitext(trel)[0], where)
    return folders, modules


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--enforce", default="",
                    help="comma-separated graphs whose cycles fail the run: " + ", ".join(SCOPES))
    ap.add_argument("--root", default=ROOT, help="the source tree (default: this checkout)")
    ap.add_argument("--edges", action="store_true", help="also print every graph's edges")
    args = ap.parse_args()
    enforce = [s for s in args.enforce.split(",") if s]
    for s in enforce:
        if s not in SCOPES:
            ap.error(f"--enforce {s}: no such graph (graphs: {', '.join(SCOPES)})")

    rt, rt_problems = runtime_graph(args.root)
    folders, modules = compiler_graphs(args.root)
    failed = False
    for scope, graph, problems in (("runtime", rt, rt_problems),
                                   ("compiler-folders", folders, []),
                                   ("compiler-files", modules, [])):
        comps = graph.cycles()
        enforced = scope in enforce
        verdict = "enforced" if enforced else "reported only"
        found = len(comps) + len(problems)
        print(f"{scope}: {len(graph.nodes)} nodes, {len(graph.edges)} edges, "
              f"{len(comps)} cycle(s), {len(problems)} layering problem(s) ({verdict})")
        if args.edges:
            for a, b in sorted(graph.edges):
                print(f"  edge: {a} -> {b}")
        for comp in comps:
            print(f"  cycle: {' <-> '.join(comp)}")
            print("\n".join(graph.describe(comp)))
        for p in problems:
            print(f"  layering: {p}")
        if enforced and found:
            failed = True
    if failed:
        print("FAILED: include cycles or layering problems in an enforced graph (" +
              ", ".join(enforce) + ")")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
