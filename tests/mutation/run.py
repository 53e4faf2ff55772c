#!/usr/bin/python3
"""Shows that the end-to-end tests catch a deliberate bug in the emitted code.

    run.py CTEST BUILD_DIR MUTATIONS_JSON NAME

Takes mutation NAME from MUTATIONS_JSON (a regex and its replacement, applied by stencilc to
every file it emits when STENCILC_TEST_MUTATE and STENCILC_TEST_MUTATE_TO are set), then runs the
end-to-end tests that compare generated code with the interpreter (their commands and
environments as ctest has them, in ctest's order) until one fails. Passes when a test fails
*because verify found a difference* ("DIFFERS" in its output); fails when every test passes
(the mutation survived) or when a test fails for another reason (the mutation does not make a
wrong program but a broken one: a compile error says nothing about the tests).
"""
import json
import os
import subprocess
import sys
import tempfile

# The tests that compare generated code with the interpreter or with the naive plan; a mutation
# of one target's code may name its own ("tests": a list of prefixes, tried in that order).
PREFIXES = ("e2e.verify.openmp.", "e2e.verify.converge.", "e2e.temporal.bitwise.",
            "e2e.verify.mpi-openmp.")


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: run.py CTEST BUILD_DIR MUTATIONS_JSON NAME")
    ctest, build_dir, mutations_file, name = sys.argv[1:]
    with open(mutations_file) as f:
        mutations = {m["name"]: m for m in json.load(f)["mutations"]}
    if name not in mutations:
        sys.exit(f"run.py: no mutation '{name}' in {mutations_file} ({', '.join(mutations)})")
    m = mutations[name]
    print(f"mutation {name}: {m['what']}\n  s/{m['regex']}/{m['replace']}/", flush=True)

    listing = subprocess.run([ctest, "--test-dir", build_dir, "--show-only=json-v1"],
                             capture_output=True, text=True, check=True).stdout
    prefixes = tuple(m.get("tests", PREFIXES))
    # What a test that sees the bug prints: verify's verdict, or the entry's own ("caught": a
    # check of the GPU layer that stops the run, say).
    caught = m.get("caught", "DIFFERS")
    # In the order of the prefixes, then ctest's: an entry may name the test that sees its bug
    # first (the others still run if that one stops seeing it).
    tests = [t for t in json.loads(listing)["tests"] if t["name"].startswith(prefixes)]
    tests.sort(key=lambda t: next(i for i, p in enumerate(prefixes) if t["name"].startswith(p)))
    if not tests:
        sys.exit(f"run.py: no end-to-end tests in {build_dir} (prefixes {', '.join(prefixes)})")

    seen = os.path.join(tempfile.mkdtemp(prefix="mutation-"), "seen")
    for t in tests:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        env = dict(os.environ)
        for kv in props.get("ENVIRONMENT", []):
            k, _, v = kv.partition("=")
            env[k] = v
        # Open MPI's session directories apart from the test's own run (it may run beside).
        env["OMPI_MCA_orte_tmpdir_base"] = tempfile.mkdtemp(prefix="mutation-ompi-")
        env["STENCILC_TEST_MUTATE"] = m["regex"]
        env["STENCILC_TEST_MUTATE_TO"] = m["replace"]
        env["STENCILC_TEST_MUTATE_SEEN"] = seen
        p = subprocess.run(t["command"], cwd=props.get("WORKING_DIRECTORY", build_dir), env=env,
                           capture_output=True, text=True, timeout=float(props.get("TIMEOUT", 300)))
        if p.returncode == 0:
            print(f"  {t['name']}: passes (this test does not see the bug)", flush=True)
            continue
        out = p.stdout + p.stderr
        if caught in out:
            print(f"  {t['name']}: FAILS, as it must:")
            for line in out.splitlines():
                if "MISMATCH" in line or caught in line:
                    print("    " + line.strip())
            print(f"mutation {name}: caught")
            return
        print(f"  {t['name']}: exit {p.returncode} without a difference found:\n{out}")
        sys.exit(f"mutation {name}: the emitted code is broken, not wrong; fix the mutation")
    if not os.path.exists(seen):
        sys.exit(f"mutation {name}: its regex matched no code the tests emitted; fix the mutation")
    sys.exit(f"mutation {name}: SURVIVED all {len(tests)} end-to-end tests")


if __name__ == "__main__":
    main()
