"""`stencilc calibrate` writes a machine profile the model reads, with the network figures
measured between 2 MPI ranks under mpirun (issue #15: calibrate under mpirun).

  calibrate.py STENCILC SAMPLES_DIR [sanitized|plain]

Checks, in one calibration with the engine and MPI: the roofline (vector peak, L1/L2/L3 load
bandwidths) is there and ordered as a roofline must be, and explain --json shows the kernel's
bound at each level; the profile's net_latency and net_bandwidth are measured (plausible for
loopback, not the built-in defaults, its sources say how) and explain reads the profile back;
the naive sweeps' rates (B_s, B_s,2) and the engine's efficiencies (3D, 2D, 8-byte cells,
x-shifts in registers, 512-bit rows: each measured and within bounds, or declined under the
sanitizers saying why, or not written where the variant did not win 4 of 5 rounds, saying so);
the many-streams slowdown, the fitted row, call and stream costs, the L3 and its share curves
(as printed); tune's probes; the cache line's round trips; the cores' speed around each engine
workload's rounds (six probes each) and that exactly the rounds whose speed changed were left out
of the fits, or that calibrate said too many changed. Then with --no-mpi the network figures are
the defaults and the sources say they were not measured; with --no-engine there is no
engine_efficiency and B_s is the calibration loop's sweep. Runs every check and exits 1 if any
failed.
"""
import json
import re
import os
import subprocess
import sys
import tempfile

stencilc, samples = sys.argv[1], sys.argv[2]
# "sanitized": stencilc and the programs it builds carry ASan and UBSan, whose instrumentation
# slows some loops far more than others.
sanitized = len(sys.argv) > 3 and sys.argv[3] == "sanitized"
failed = False


def check(ok, what):
    global failed
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failed = True


with tempfile.TemporaryDirectory() as tmp:
    prof = os.path.join(tmp, "m.json")
    out = subprocess.run([stencilc, "calibrate", "-o", prof], capture_output=True, text=True)
    print(out.stdout, out.stderr)
    check(out.returncode == 0, "calibrate exits 0")
    m = json.load(open(prof))
    lat, bw = m["net_latency"], m["net_bandwidth"]
    # Loopback through shared memory: well under a millisecond per message, and more than
    # 10 MB/s; the defaults (1e-6 s, 1e10 B/s) would be a sign it was not measured.
    check(0 < lat < 1e-3 and lat != 1e-6, f"net_latency measured: {lat} s")
    check(1e7 < bw < 1e12 and bw != 1e10, f"net_bandwidth measured: {bw} B/s")
    check("MPI_Sendrecv between 2 ranks under mpirun" in m["sources"], "sources say how")
    check("MPI, 2 ranks under mpirun" in out.stdout, "calibrate reports the MPI figures")
    ex = subprocess.run([stencilc, "explain", os.path.join(samples, "heat3d.stn"), "--target",
                         "mpi-openmp", "--ranks", "2", "--machine", prof, "--json"],
                        capture_output=True, text=True)
    check(ex.returncode == 0, "explain reads the calibrated profile")
    # The roofline: an FMA peak above the 7-point stencil's rate (which mixes adds and
    # multiplies and loads), and L1 loads faster than streaming from memory.
    check(m["peak_flops"] > m["flops"], f"peak_flops {m['peak_flops']:.3g} > stencil flops {m['flops']:.3g}")
    check(m["l1_bandwidth"] > m["bandwidth"],
          f"l1_bandwidth {m['l1_bandwidth']:.3g} > memory bandwidth {m['bandwidth']:.3g}")
    check(m["l2_bandwidth"] > 0 and m["l3_bandwidth"] > 0, "L2 and L3 load bandwidths measured")
    # A naive sweep's memory rate (model bytes: a write counts its read for ownership, which the
    # scale loop's figure leaves out): measured, and not beyond what 12 bytes per 8 allow.
    check(0 < m.get("sweep_bandwidth", 0) <= 1.5 * m["bandwidth"] * 1.2,
          f"sweep_bandwidth {m.get('sweep_bandwidth', 0):.3g} measured, at most 1.5 B (+20%)")
    check("naive 7-point sweep from memory" in out.stdout, "calibrate reports the sweep's rate")
    # The CPU engine, run through a generated program: its stages' rate against the row
    # benchmark's (some fraction of it: the engine does more than the row functions).
    check(0.1 <= m.get("engine_efficiency", 0) <= 2.0,
          f"engine_efficiency {m.get('engine_efficiency', 0):.3g} measured, within 0.1..2")
    check("CPU engine, heat3d scheme=temporal" in out.stdout, "calibrate reports the engine's rate")
    # ... and on a 2D program (heat2d), whose stages lose less to the engine.
    check(0.1 <= m.get("engine_efficiency_2d", 0) <= 2.0,
          f"engine_efficiency_2d {m.get('engine_efficiency_2d', 0):.3g} measured, within 0.1..2")
    check("CPU engine, heat2d scheme=temporal,k=8,rows=1024" in out.stdout,
          "calibrate reports the engine's 2D rate")
    # Its naive sweep's rate, B_s,2 for rank-2 programs, in the same model bytes and bounds.
    check(0 < m.get("sweep_bandwidth_2d", 0) <= 1.5 * m["bandwidth"] * 1.2,
          f"sweep_bandwidth_2d {m.get('sweep_bandwidth_2d', 0):.3g} measured, at most 1.5 B (+20%)")
    check("generated naive sweep, heat2d 4094x8190: " in out.stdout
          and "(B_s,2; " in out.stdout and "sweep_bandwidth_2d and" in m["sources"],
          "calibrate reports B_s,2 and the sources say how it was measured")
    # ... and on 8-byte cells (heat3d in double), which the model prices on their own eta.
    f64 = "heat3d fp64 scheme=temporal,k=10,rows=48"
    declined = sanitized and "engine_efficiency_f64" not in m and \
        f"CPU engine: {f64} not measured (" in out.stdout
    check(declined or 0.1 <= m.get("engine_efficiency_f64", 0) <= 2.0,
          f"engine_efficiency_f64 {m.get('engine_efficiency_f64', 0):.3g} measured, within 0.1..2")
    check(f"CPU engine, {f64}: " in out.stdout or declined,
          "calibrate reports the engine's rate on 8-byte cells")
    # ... and with x-shifts in registers (xshift=reg), on both programs. Under the sanitizers
    # the naive x loop is instrumented per cell and the x-shift loop per vector: the latter ran
    # several times faster there, which calibrate declines as a measurement and says so.
    # On 512 bits too, where calibrate measured 512-bit rows (wide_flops).
    xreg_plans = [("xreg_engine_efficiency", "heat3d scheme=temporal,k=12,rows=64,xshift=reg"),
                  ("xreg_engine_efficiency_2d", "heat2d scheme=temporal,k=8,rows=1024,xshift=reg")]
    if "wide_flops" in m:
        xreg_plans.append(("wide_xreg_engine_efficiency",
                           "heat3d 512-bit scheme=temporal,k=12,rows=64,vec=512,xshift=reg"))
    else:
        check("wide_xreg_engine_efficiency" not in m, "no 512-bit x-shifts without 512-bit rows")
    for key, plan in xreg_plans:
        declined = sanitized and key not in m and f"CPU engine: {plan} not measured (" in out.stdout
        # Written only where the x-shifts beat the plain rows in 4 of the 5 alternated rounds;
        # calibrate prints the count either way.
        program = plan.split(" scheme=")[0]
        won = re.search(rf"CPU engine, {program} x-shifts in registers: faster than the plain "
                        r"rows in (\d) of 5 alternated rounds", out.stdout)
        if not declined:
            check(won is not None, f"calibrate reports in how many rounds {program}'s x-shifts won")
        if won is not None and int(won.group(1)) < 4:
            check(key not in m and "no gain the model counts on (not written)" in out.stdout,
                  f"{key}: x-shifts won {won.group(1)} of 5 rounds, not written, saying so")
        else:
            check(declined or 0.1 <= m.get(key, 0) <= 2.0,
                  f"{key} {m.get(key, 0):.3g} measured, within 0.1..2"
                  + (" (or declined under the sanitizers, saying why)" if sanitized else ""))
        check(declined or "CPU engine, " + plan in out.stdout,
              f"calibrate reports the engine's {plan} rate")
    # Many grids streamed at once: 9 and 17 streams measured, the slowdown per grid past 9
    # written as printed (0, and not written, where 17 were not slower).
    streams = re.search(r"9 grids streamed at once: ([0-9.]+) ([kMGT]?)B/s; 17: ([0-9.]+) "
                        r"([kMGT]?)B/s \(memory time ([0-9.]+) longer per grid past 9: "
                        r"stream_slowdown\)", out.stdout)
    check(streams is not None, "calibrate reports the rate with 9 and with 17 grids streamed")
    if streams:
        scale = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
        few = float(streams.group(1)) * scale[streams.group(2)]
        many = float(streams.group(3)) * scale[streams.group(4)]
        slow = float(streams.group(5))
        check(abs(slow - max(0.0, (few / many - 1) / 8)) <= 0.01,
              f"stream_slowdown {slow} is (9-stream rate / 17-stream rate - 1) / 8 of "
              f"{few} and {many} GB/s")
        got = m.get("few_streams_bandwidth", 0)
        check(abs(got - few) <= 0.006 * few,
              f"the profile's few_streams_bandwidth {got:.4g} B/s is the 9-stream rate printed")
        check(abs(m.get("stream_slowdown", 0) - slow) <= 0.0005,
              f"the profile's stream_slowdown {m.get('stream_slowdown', 0):.4g} is the {slow} "
              "printed")
    # A fitted cost (`field`, `unit` us or ns) that calibrate prints as `found` (its figure the
    # first group) or says it found none with `none`: written with the figure printed, or not
    # written.
    def fitted(field, found, none, unit, what):
        got_line = re.search(found, out.stdout)
        check((got_line is not None) != (none in out.stdout),
              f"calibrate reports {what}, or that it found none")
        if got_line:
            got = m.get(field, 0) * (1e9 if unit == "ns" else 1e6)
            check(got > 0 and abs(got - float(got_line.group(1))) <= 0.005 * got,
                  f"the profile's {field}, {got:.4g} {unit}, is the {got_line.group(1)} {unit} "
                  "printed")
        else:
            check(field not in m, f"no {field} written where none was found")

    # The cost of each row a stage computes, fitted to heat3d's stages on 510- and 126-cell rows
    # (the same cells), on 256-bit vectors and, where 512-bit rows were measured, on those too.
    def row_cost(field, widths):
        fitted(field,
               r"on 126-cell rows: [^:]* cells/s against [^:]* on 510-cell rows: "
               r"([0-9.e+-]+) ns per row a stage computes \(" + field + r"\)",
               f"no slower per cell than its rings explain: no cost per row ({field} not written)",
               "ns", f"the cost per row on {widths}")

    row_cost("row_seconds", "256-bit vectors")
    # The cost of each (tile, plane, stage) call, fitted beside it from the k=4 plan on the short
    # rows in 16-row tiles (four times the 64-row plan's calls for the same cells and rows).
    fitted("call_seconds",
           r"heat3d scheme=temporal,k=4,rows=16 on 126-cell rows: [^:]* cells/s against "
           r"[^:]* with scheme=temporal,k=4,rows=64: ([0-9.e+-]+) us per \(tile, plane, "
           r"stage\) call \(call_seconds\)",
           "no cost per call (call_seconds not written)", "us", "the cost per call")
    # The cost of each plane stream a call starts beyond heat3d's, from himeno M's k=8 plan on 8-
    # and 32-row tiles, and with it the stages' rate of a program that reads coefficients
    # (engine_efficiency_coef).
    fitted("stream_call_seconds",
           r"himeno M k=8: [^:]* cells/s on 8-row tiles against [^:]* on 32-row ones: "
           r"([0-9.e+-]+) us per plane stream a call starts beyond heat3d's 4 "
           r"\(stream_call_seconds\)",
           "(stream_call_seconds and engine_efficiency_coef not written)", "us",
           "the cost per plane stream of a call")
    eta_c = re.search(r"\(stream_call_seconds\); its stages at ([0-9.]+) of the row benchmark's "
                      r"rate \(engine_efficiency_coef", out.stdout)
    if eta_c:
        got = m.get("engine_efficiency_coef", 0)
        check(0.1 <= got <= 4.0 and abs(got - float(eta_c.group(1))) <= 0.006 * got,
              f"the profile's engine_efficiency_coef {got:.3g} is the {eta_c.group(1)} printed, "
              "within 0.1..4")
    else:
        check("engine_efficiency_coef" not in m, "no engine_efficiency_coef without its fit")
    if "wide_flops" in m:
        row_cost("wide_row_seconds", "512-bit vectors")
    else:
        check("wide_row_seconds" not in m and "wide_row_seconds" not in out.stdout,
              "no 512-bit row cost without 512-bit rows")
    # Where 512-bit row functions were measured, the engine is run on them too.
    # Its figure stands where the 512-bit stages beat the 256-bit ones in 4 of the 5 alternated
    # rounds; otherwise it is capped so they are priced no faster (F_w eta_w <= F eta), saying so.
    if "wide_flops" in m:
        eta_w = m.get("wide_engine_efficiency", 0)
        check("CPU engine, heat3d scheme=temporal,k=12,rows=64,vec=512" in out.stdout,
              "calibrate reports the engine's 512-bit rate")
        won = re.search(r"CPU engine, heat3d 512-bit vectors: faster than the 256-bit ones in "
                        r"(\d) of 5 alternated rounds", out.stdout)
        check(won is not None, "calibrate reports in how many rounds the 512-bit stages won")
        if won is not None and int(won.group(1)) < 4:
            said = re.search(r"no gain the model counts on \(written as ([0-9.]+), its stages "
                             r"priced no faster than the 256-bit ones\)", out.stdout)
            narrow = m["flops"] * m.get("engine_efficiency", 0)
            check(said is not None and abs(float(said.group(1)) - eta_w) <= 0.005 + 1e-9,
                  f"the 512-bit stages lost: wide_engine_efficiency {eta_w:.4g} written as printed")
            check(0 < m["wide_flops"] * eta_w <= narrow * (1 + 1e-9),
                  f"the 512-bit stages lost: priced at {m['wide_flops'] * eta_w:.4g} flop/s, "
                  f"no faster than the 256-bit ones' {narrow:.4g}")
        else:
            check(0.1 <= eta_w <= 2.0, f"wide_engine_efficiency {eta_w:.3g} measured, within 0.1..2")
    roof = json.loads(ex.stdout)["roofline"] if ex.returncode == 0 else {}
    mem = roof.get("memory", {}).get("cells_per_second", 0)
    check(abs(mem - m["bandwidth"] / json.loads(ex.stdout)["bytes_per_cell"]) <= 1e-6 * mem if mem else False,
          f"explain's memory roofline bound is bandwidth / bytes per cell: {mem:.4g} cells/s")
    check("roofline: vector peak" in out.stdout, "calibrate reports the roofline")
    # The L3: at most what sysfs or cpuid reports (a VM's cpuid may report the whole socket's;
    # calibrate measures the share it gets), more than the L2 where there is one.
    gc = subprocess.run(["getconf", "LEVEL3_CACHE_SIZE"], capture_output=True, text=True)
    reported = int(gc.stdout.strip() or 0) if gc.returncode == 0 and gc.stdout.strip().isdigit() else 0
    sysfs = "/sys/devices/system/cpu/cpu0/cache"
    if reported > 0 and not os.path.isdir(sysfs):
        l3 = m["shared_cache_bytes"]
        check(m["cache_bytes"] < l3 <= reported,
              f"L3 {l3:.4g} B measured within (L2 {m['cache_bytes']:.4g}, reported {reported:.4g}]")
        check((l3 < reported) == ("reported;" in out.stdout),
              "calibrate prints its L3 sweep when it found less than reported")
    # Where calibrate found less L3 than reported (sysfs or cpuid), the rest of its sweep from
    # the L3 on: what the model reads a sweep a little past the L3 from (l3_spill_gain).
    curve = m.get("l3_load_curve", [])
    if "reported;" in out.stdout:
        check(len(curve) >= 1 and curve[0][0] == m["shared_cache_bytes"]
              and all(p[1] > 0 for p in curve)
              and all(a[0] < b[0] for a, b in zip(curve, curve[1:])),
              f"the load curve {curve} starts at the L3, in ascending sizes")
    else:
        check(not curve, "no load curve where the L3 is the reported one")
    # The naive sweep over grids of 1, 2 and 4 times the L3 in all (whole 2 MiB plane pairs, at
    # least 4) and of 2 x 257 MiB: what l3_spill_gain reads before the load sums. Ascending,
    # positive, from about the L3 to the far sweep, printed with its fastest over its slowest
    # (an L3 as large as the far sweep has no curve to speak of).
    sweeps = m.get("l3_sweep_curve", [])
    pair = 2 * 512 * 512 * 4
    check(m["shared_cache_bytes"] >= 257 * pair or len(sweeps) >= 2 and all(p[1] > 0 for p in sweeps)
          and all(a[0] < b[0] for a, b in zip(sweeps, sweeps[1:]))
          and abs(sweeps[0][0] - max(4 * pair, m["shared_cache_bytes"])) <= pair / 2
          and sweeps[-1][0] == 258 * pair,
          f"the sweep curve {sweeps} runs from the L3 ({m['shared_cache_bytes']:.4g} B) to 2 x 257 MiB")
    said = re.search(r"naive sweeps by the bytes of their grids: (.*) \(l3_sweep_curve: a sweep a "
                     r"little past the L3 at up to ([0-9.]+) times the slowest\)$", out.stdout, re.M)
    if sweeps:
        rates = [p[1] for p in sweeps]
        check(said is not None and said.group(1).count("B/s") == len(sweeps)
              and abs(float(said.group(2)) - max(rates) / min(rates)) <= 0.006,
              "calibrate prints the sweep curve and its largest gain")
        check("l3_sweep_curve: the naive sweep above over grids of 1, 2 and 4 times the L3" in
              m["sources"], "the sources say how the sweep curve was measured")

    # What a thread's share of the L3 keeps of data read again: shares of re-reads from memory
    # at 0.25-1.5 and 4 times the share (M_3 / threads), never falling, the last one 1, as
    # printed (or no curve, and no line, where the L3 kept even the largest).
    reuse = m.get("l3_reuse_curve", [])
    share = m["shared_cache_bytes"] / m["threads"]
    said = re.search(r"data read again after a thread touched \(per thread\), from memory: (.*) "
                     r"\(medians of (\d+) runs\)$", out.stdout, re.M)
    if reuse:
        check([round(p[0] / share, 3) for p in reuse]
              == [0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.25, 1.5, 4.0]
              and all(0 <= p[1] <= 1 for p in reuse)
              and all(a[1] <= b[1] for a, b in zip(reuse, reuse[1:])) and reuse[-1][1] == 1,
              f"the re-read curve {reuse} at a quarter to 4 times {share:.4g} B, shares rising to 1")
        check(said is not None and said.group(1).count("%") == len(reuse)
              and said.group(1).endswith(" 100%"), "calibrate prints the re-read curve")
        # The calibration program's, again after heat3d's, heat2d's and fp64's engine runs, and
        # at the end: five runs spread over the calibration.
        check(said.group(2) == "5", f"the re-read curve is the medians of 5 runs ({said.group(2)})")
        check("then of that and 3 passes after the engine's workloads and one at the end"
              in m["sources"], "the sources count the curve's runs")
    else:
        check(said is None, "no re-read line without a curve")

    # How rings cycled in a thread's share slow down: the same sizes, rates relative to the
    # small ones, never rising, at most 1, as printed (or none where the last did not slow).
    ring = m.get("l3_ring_curve", [])
    said = re.search(r"rings cycled \(per thread\), their rate relative to small ones: (.*) "
                     r"\(medians of (\d+) runs\)$", out.stdout, re.M)
    if ring:
        check([round(p[0] / share, 3) for p in ring]
              == [0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.25, 1.5, 4.0]
              and all(0 < p[1] <= 1 for p in ring)
              and all(a[1] >= b[1] for a, b in zip(ring, ring[1:])) and ring[-1][1] < 1,
              f"the ring curve {ring} at a quarter to 4 times {share:.4g} B, falling below 1")
        check(said is not None and said.group(1).count(",") == len(ring) - 1
              and said.group(1).endswith(f" {ring[-1][1]:.2f}"), "calibrate prints the ring curve")
        check(said.group(2) == "5", f"the ring curve is the medians of 5 runs ({said.group(2)})")
    else:
        check(said is None, "no ring line without a curve")

    # tune's probes: the stencil's is F's own run (cells/s = flops / 8, as printed with %.6e);
    # the sweep's is measured again after the engine's runs, which set B_s, and printed.
    ps, pr = m.get("probe_sweep_bandwidth", 0), m.get("probe_stencil_rate", 0)
    check(ps > 0 and pr > 0, f"tune's probes measured: sweep {ps:.4g} B/s, stencil {pr:.4g} cells/s")
    check(abs(pr - m["flops"] / 8) <= 1e-5 * pr,
          f"probe_stencil_rate {pr:.6g} is the flops' run, {m['flops'] / 8:.6g} cells/s")
    said = re.search(r"probes for tune: naive sweep ([0-9.]+) ([kMGT]?)B/s, stencil in L2 "
                     r"([0-9.]+) ([kMGT]?) cells/s", out.stdout)
    check(said is not None, "calibrate reports tune's probes")
    if said:
        scale = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
        got = float(said.group(1)) * scale[said.group(2)]
        check(abs(got - ps) <= 0.006 * ps, f"the profile's probe_sweep_bandwidth {ps:.4g} is the "
              f"{got:.4g} B/s printed")
    check("probe_sweep_bandwidth: the naive sweep's pass repeated three times right after the "
          "engine's runs (the median)"
          in m["sources"], "sources say when the sweep's probe was taken")

    # Where the host had the threads while the streams ran: a cache line's round trip between
    # two of them, as printed (tune compares its rounds' with it).
    h = m.get("handoff_seconds", 0)
    said = re.search(r"a cache line's round trip between two threads, right after: ([0-9.]+) us",
                     out.stdout)
    if m["threads"] > 1:
        check(1e-9 < h < 1e-4, f"handoff_seconds {h:.3g} measured, between 1 ns and 100 us")
        check(said is not None and abs(float(said.group(1)) - h * 1e6) <= 0.006,
              f"calibrate prints the round trip {h * 1e6:.3g} us")
    else:
        check(h == 0 and said is None, "one thread: no round trip")
    # And at each run of the share curves (the main run's and the ones between the engine's
    # workloads), with a note where they are more than twice apart.
    said = re.search(r"a cache line's round trip between two threads, after the streams and at "
                     r"each curves' run: ([0-9., ]+) us( \(the host moved the threads during the "
                     r"calibration: its memory rates and curves mix places, docs/MODEL.md\))?$",
                     out.stdout, re.M)
    runs = re.search(r"rings cycled \(per thread\).*\(medians of (\d+) runs\)$", out.stdout, re.M)
    if m["threads"] > 1 and runs:
        trips = [float(v) for v in said.group(1).split(", ")] if said else []
        check(len(trips) == int(runs.group(1)) + 1 and all(t > 0 for t in trips),
              f"a round trip after the streams and at each of the {runs.group(1)} curves' runs "
              f"({trips})")
        if trips:
            check((said.group(2) is not None) == (max(trips) > 2 * min(trips) * 1.01)
                  or abs(max(trips) - 2 * min(trips)) < 0.02,
                  "the note on a move where the round trips are more than twice apart")

    # The cores' speed before, between and after each engine workload's 5 rounds: each round is
    # priced at the speed either side of it, and a round whose two probes differ by more than
    # 1.15x is left out of the fits while 3 or more steady rounds are left (calibrate.cpp).
    speeds = re.findall(r"^  CPU engine, (\w+): the cores at ([0-9., ]+) of their speed at the "
                        r"engine's start, before, between and after its rounds \(the in-L2 stencil\); each round "
                        r"priced at the cores' speed either side of it(.*)$", out.stdout, re.M)
    check([w for w, _, _ in speeds] == ["engine", "engine2d", "engine_f64", "engine_himeno"],
          f"the cores' speed around each engine workload's rounds ({[w for w, _, _ in speeds]})")
    for name, values, note in speeds:
        probes = [float(v) for v in values.split(", ")]
        check(len(probes) == 6 and all(v > 0 for v in probes),
              f"{name}: 6 probes around 5 rounds ({probes})")
        ratios = [max(a, b) / min(a, b) for a, b in zip(probes, probes[1:])]
        # Printed to 2 decimals: a ratio within 2% of the line could fall either way.
        if len(probes) != 6 or any(abs(r / 1.15 - 1) < 0.02 for r in ratios):
            continue
        unsteady = [i + 1 for i, r in enumerate(ratios) if r > 1.15]
        if not unsteady:
            want = ""
        elif len(unsteady) <= 2:
            want = (f"; round{'s' if len(unsteady) > 1 else ''} "
                    f"{', '.join(str(i) for i in unsteady)} left out of the fits: the speed "
                    f"changed while {'they' if len(unsteady) > 1 else 'it'} ran")
        else:
            want = (f"; the speed changed during {len(unsteady)} of the 5 rounds, too many to "
                    f"leave out: this workload's figures are less sure than usual")
        check(note == want, f"{name}: rounds {unsteady} changed speed, and calibrate says so "
              f"({note!r})")
    check("each round priced at the cores' speed" in m["sources"],
          "sources say the engine's rounds are priced at the cores' speed around them")

    prof2 = os.path.join(tmp, "n.json")
    # --no-engine as well: the engine's figures are checked above, and this run takes half the time.
    out = subprocess.run([stencilc, "calibrate", "--no-mpi", "--no-engine", "-o", prof2],
                         capture_output=True, text=True)
    check(out.returncode == 0, "calibrate --no-mpi --no-engine exits 0")
    n = json.load(open(prof2))
    check(n["net_latency"] == 1e-6 and n["net_bandwidth"] == 1e10,
          "--no-mpi keeps the default network figures")
    check("net: defaults, not measured" in n["sources"], "--no-mpi: sources say not measured")
    check("MPI: not measured (--no-mpi)" in out.stdout, "--no-mpi: calibrate says so")
    check(all(k not in n for k in ("engine_efficiency", "wide_engine_efficiency",
                                   "sweep_bandwidth_2d",
                                   "engine_efficiency_2d", "engine_efficiency_f64",
                                   "xreg_engine_efficiency",
                                   "xreg_engine_efficiency_2d", "wide_xreg_engine_efficiency",
                                   "stream_call_seconds", "engine_efficiency_coef"))
          and "engine_efficiency: not measured" in n["sources"],
          "--no-engine: no engine_efficiency, and sources say not measured")
    check(n["sweep_bandwidth"] > 0, "--no-engine: the calibration loop's sweep rate is B_s")
    check(n.get("probe_sweep_bandwidth", 0) == n["sweep_bandwidth"]
          and "probe_sweep_bandwidth: the naive sweep's pass above" in n["sources"],
          "--no-engine: tune's sweep probe is that same rate")
    check("CPU engine: not measured (--no-engine)" in out.stdout, "--no-engine: calibrate says so")
    # Without the engine's runs between, the share curves are the calibration program's and the
    # end's.
    for what in ("data read again after", "rings cycled"):
        runs = re.search(what + r".*\(medians of (\d+) runs\)$", out.stdout, re.M)
        check(runs is None or runs.group(1) == "2",
              f"--no-engine: {what}: the medians of 2 runs ({runs and runs.group(1)})")
    check("then of that and one pass at the end" in n["sources"],
          "--no-engine: the sources count the curves' two runs")
sys.exit(1 if failed else 0)
