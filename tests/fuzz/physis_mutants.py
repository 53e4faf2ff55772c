#!/usr/bin/env python3
"""Mutation test of the Physis front end (Clang + physis_translate): token-level mutants of the
Physis programs in tests/physis and tests/lit/physis (a token deleted, duplicated, replaced by
another token of the same program, a number changed, a line dropped), each run through
`stencilc check` (and `import` for those that check). Every mutant must end with exit 0 or 1
and no "internal error", crash, sanitizer report or hang. Deterministic: a fixed seed
(STENCILC_FUZZ_SEED overrides) and a fixed count.

    physis_mutants.py STENCILC SOURCE_DIR [COUNT]
"""
import os
import random
import re
import subprocess
import sys
import tempfile

TOKEN = re.compile(r'[A-Za-z_]\w*|\d+\.\d*f?|\d+|==|!=|<=|>=|&&|\|\||[-+*/%<>=!?:;,(){}\[\]&]')


def mutate(text, rng):
    toks = [m for m in TOKEN.finditer(text)]
    if not toks:
        return text
    kind = rng.randrange(5)
    t = rng.choice(toks)
    if kind == 0:  # delete a token
        return text[:t.start()] + text[t.end():]
    if kind == 1:  # duplicate a token
        return text[:t.end()] + " " + t.group() + text[t.end():]
    if kind == 2:  # replace by another token of the program
        o = rng.choice(toks).group()
        return text[:t.start()] + o + text[t.end():]
    if kind == 3:  # a number changed
        nums = [m for m in toks if m.group()[0].isdigit()]
        if nums:
            t = rng.choice(nums)
            return text[:t.start()] + rng.choice(["0", "1", "-1", "100000", "2.5", "0.0f"]) + text[t.end():]
        return text
    lines = text.split("\n")  # drop a line
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def main():
    stencilc, src = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    rng = random.Random(int(os.environ.get("STENCILC_FUZZ_SEED", "20261123")))
    seeds = []
    for d in ("tests/physis", "tests/lit/physis"):
        for f in sorted(os.listdir(os.path.join(src, d))):
            if f.endswith(".c"):
                seeds.append(open(os.path.join(src, d, f)).read())
    # The lit programs include Inputs/ headers: run the mutants where those resolve.
    incdir = os.path.join(src, "tests/lit/physis")
    failures = 0
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(os.path.join(incdir, "Inputs"), os.path.join(tmp, "Inputs"))
        for i in range(count):
            text = seeds[i % len(seeds)]
            for _ in range(rng.randrange(1, 4)):
                text = mutate(text, rng)
            path = os.path.join(tmp, "m%d.c" % i)
            with open(path, "w") as f:
                f.write(text)
            for cmd in (["check", path], ["import", path, "-o", path + ".stn"]):
                try:
                    r = subprocess.run([stencilc] + cmd, capture_output=True, text=True, timeout=60)
                except subprocess.TimeoutExpired:
                    print("HANG (60 s): stencilc %s on mutant %d:\n%s" % (cmd[0], i, text))
                    failures += 1
                    break
                out = r.stdout + r.stderr
                bad = r.returncode not in (0, 1) or "internal error" in out or "Sanitizer" in out
                if bad:
                    print("FAIL (exit %d): stencilc %s on mutant %d:\n%s\n--- output:\n%s"
                          % (r.returncode, cmd[0], i, text, out[-3000:]))
                    failures += 1
                    break
                if r.returncode != 0:
                    break
                checked += 1
    print("%d mutants, %d checked clean, %d failures" % (count, checked, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
