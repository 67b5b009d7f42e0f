#!/usr/bin/env python3
"""Turn bench/run's raw guest outputs into bench/results.md (stdout) and
bench/results.png: each figure for the HPM path and the upstream SBI PMU
path side by side, with the ratio HPM / upstream.

report.py --update-rtl bench/results.md LOG rewrites only the section of
SBI call costs on the CVA6 RTL, from a scripts/run-rtl log of
tests/rtl-cva6's program (tests/guest/rtl-cva6.sh keeps one in
build/rtl-cva6/last-run.log)."""
import glob
import os
import re
import subprocess
import sys

OPS = ["open+close", "enable+disable", "read", "mmap-read"]
SETS = [("instructions", "1 event: instructions"),
        ("cycles", "1 event: cycles"),
        ("group4", "group of 4")]
LOOP_INSNS = 100_000_000
DELEG = ("cdeleg", "cdeleg-sbi")


def sections(path):
    out, cur = {}, None
    if not os.path.exists(path):
        return out
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("== "):
            cur = line[3:]
            out[cur] = []
        elif cur:
            out[cur].append(line)
    return out


def op_costs(path):
    """Operation costs per event set; none for the group of four where
    perf stat found it not counted (costs of a group that never runs on
    the counters compare with nothing)."""
    costs = {}
    secs = sections(path)
    group_counted = not any("<not counted>" in line
                            for line in secs.get("counted", []))
    for name, lines in secs.items():
        if name == "group4" and not group_counted:
            continue
        for line in lines:
            m = re.match(r"op=(\S+) events=\d+ instructions=([\d.]+)", line)
            if m:
                costs[(name, m.group(1))] = float(m.group(2))
    return costs


def overhead(path):
    vals = {}
    if not os.path.exists(path):
        return vals
    for line in open(path):
        m = re.match(r"(\S+) elapsed_ns=(\d+)", line)
        if m:
            vals[m.group(1)] = int(m.group(2))
    acc = sections(path).get("accuracy", [])
    for line in acc:
        f = line.split(",")
        if len(f) > 2 and f[0].isdigit():
            vals["count-" + f[2]] = int(f[0])
    return vals


def many(path):
    """perfops many's figures per number of events: {n: {op: value}}."""
    res, cur = {}, None
    if not os.path.exists(path):
        return res
    for line in open(path):
        m = re.match(r"many events=(\d+)", line)
        if m:
            cur = res.setdefault(int(m.group(1)), {})
            continue
        if cur is None:
            continue
        for k, v in re.findall(r"(\w+)=(-?[\d.]+)", line):
            cur[k] = float(v)
    return res


def counted(path, n):
    """Of perf stat's n events (section counted-n), how many were counted,
    and the least share of the time any was on a counter (%)."""
    lines = sections(path).get(f"counted-{n}", [])
    rows = [l.split(",") for l in lines if l.count(",") >= 4]
    if not rows:
        return None
    ok = [f for f in rows if f[0] and f[0][0].isdigit()]
    share = min((float(f[4]) for f in ok if f[4]), default=0.0)
    return len(ok), len(rows), share


def ecalls(out, stack, ev, op):
    try:
        n0 = int(open(f"{out}/{stack}.{ev}.{op}.0.ecalls").read())
        n1 = int(open(f"{out}/{stack}.{ev}.{op}.200.ecalls").read())
    except (OSError, ValueError):
        return None
    return (n1 - n0) / 200.0


CATEGORIES = ("firmware", "driver", "perf-core", "kernel", "user")


def record_figures(path):
    """elapsed_ns, samples and loop_samples of a perf record run's output."""
    vals = {}
    for line in open(path):
        m = re.match(r"(elapsed_ns|samples|loop_samples)=(\d+)", line)
        if m:
            vals[m.group(1)] = int(m.group(2))
    return vals


def categories(path):
    """A bench/tb-categories.py output: instructions by category."""
    vals = {}
    for line in open(path):
        name, value = line.split()
        vals[name] = int(value)
    return vals


def breakdown(out, stack, ev, op):
    """One operation's instructions by who ran them (bench/tb-categories.py):
    the boot with N operations less the boot with none, over N."""
    runs = {}
    for path in glob.glob(f"{out}/{stack}.{ev}.{op}.insn.*.cat"):
        try:
            runs[int(path.split(".")[-2])] = categories(path)
        except (OSError, ValueError):
            return None
    if sorted(runs)[:1] != [0] or len(runs) != 2:
        return None
    n = max(runs)
    if not all(k in r for r in runs.values() for k in CATEGORIES + ("total",)):
        return None
    res = {k: (runs[n][k] - runs[0][k]) / n for k in CATEGORIES + ("total",)}
    res["n"] = n
    return res


RTL_TITLE = "## SBI calls on the CVA6 RTL (cycles)"


def rtl_costs(path):
    """The "# cost NAME: N cycles" lines of tests/rtl-cva6's program, and
    its "# rdcycle; rdcycle: N cycles" under the key "rdcycle"."""
    costs = {}
    if not os.path.exists(path):
        return costs
    for line in open(path):
        m = re.match(r"# (?:cost (.+)|(rdcycle); rdcycle): (\d+) cycles", line.strip())
        if m:
            costs[m.group(1) or m.group(2)] = int(m.group(3))
    return costs


def rtl_section(path):
    """The RTL section's lines, from a scripts/run-rtl log of the counting
    program (bench/run: rtl-cva6.out), or [] without one."""
    c = rtl_costs(path)
    if not any(k != "rdcycle" for k in c):
        return []
    lines = [RTL_TITLE, "",
             "The Verilated OpenHW CVA6 (bcb0f7de, `cv64a6_imafdc_sv39`,",
             "`scripts/run-rtl`) running OpenSBI v1.9 with the HPM patch, which",
             "keeps OpenSBI's SBI PMU extension too: the cycles of each call",
             "from S-mode, `rdcycle` before and after the `ecall`, the least of",
             "8 warm calls, less the "
             f"{c.get('rdcycle', 'n/a')} cycles of the two `rdcycle` calls alone",
             "(`tests/rtl-cva6`'s program, `tests/guest/rtl-cva6.sh`): a",
             "cycle-accurate model of a real core, where QEMU counts",
             "instructions only. The SBI PMU calls act on the counter",
             "`config_matching` gave for instructions, without an initial value.",
             "",
             "| call | HPM extension | SBI PMU extension | ratio |",
             "|---|---|---|---|"]
    for label, h, u in (
            ("start a counter (HPM INHIBIT_CLEAR; SBI PMU counter_start)",
             "HPM INHIBIT_CLEAR", "SBI PMU counter_start"),
            ("stop a counter (HPM INHIBIT_SET; SBI PMU counter_stop)",
             "HPM INHIBIT_SET", "SBI PMU counter_stop"),
            ("start a counter from zero (HPM COUNTER_START)",
             "HPM COUNTER_START", None),
            ("program an event (HPM SET_MEVENT, with its read-back)",
             "HPM SET_MEVENT", None),
            ("read a counter (HPM GET_MCOUNTER)", "HPM GET_MCOUNTER", None),
            ("SBI round trip, BASE get_spec_version", "SBI BASE get_spec_version",
             None)):
        hv, uv = c.get(h), c.get(u) if u else None
        lines.append(f"| {label} | {fmt(hv)} | {fmt(uv)} | {ratio(hv, uv)} |")
    lines.append("")
    return lines


def update_rtl(results, log):
    """Rewrite only the RTL section of an existing results.md from @log,
    where the rest of the bench was not rerun (the section goes before the
    chart when the file has none yet)."""
    text = open(results).read().split("\n")
    new = rtl_section(log)
    if not new:
        sys.exit(f"report.py: no '# cost' lines in {log}")
    if RTL_TITLE in text:
        a = text.index(RTL_TITLE)
        b = next((i for i in range(a + 1, len(text))
                  if text[i].startswith("## ") or text[i].startswith("![")),
                 len(text))
        text[a:b] = new
    else:
        b = next((i for i, l in enumerate(text) if l.startswith("![operation costs]")),
                 len(text))
        text[b:b] = new
    with open(results, "w") as f:
        f.write("\n".join(text))


def fmt(v, unit=""):
    if v is None:
        return "n/a"
    if isinstance(v, float) and abs(v) < 10 and unit == "%":
        return f"{v:.3f} %"
    if unit == "%":
        return f"{v:.2f} %"
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.1f}"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "n/a"
    return f"{a / b:.2f}"


def main():
    out, stacks = sys.argv[1], sys.argv[2:]
    data = {s: {"ops": op_costs(f"{out}/{s}.ops"),
                "ov": overhead(f"{out}/{s}.overhead"),
                "many": many(f"{out}/{s}.many")} for s in stacks}
    # Counter delegation (virt-cdeleg): the HPM driver programming
    # delegated counters, and the SBI PMU driver on the same CPU.
    for s in DELEG:
        if os.path.exists(f"{out}/{s}.ops"):
            data[s] = {"ops": op_costs(f"{out}/{s}.ops"), "ov": {}, "many": {}}

    def get(stack, kind, key):
        if stack not in data:
            return None
        return data[stack][kind].get(key)

    rows = []
    for key, label in SETS:
        for op in OPS:
            rows.append((f"{op}, {label}", get("hpm", "ops", (key, op)),
                         get("upstream", "ops", (key, op)), ""))
    for ev, label in (("instructions", "1 event: instructions"),
                      ("prog", "1 event: dTLB-load-misses (programmable)"),
                      ("group4", "group of 4")):
        for op in ["open+close", "enable+disable", "read"]:
            rows.append((f"SBI calls per {op}, {label}",
                         ecalls(out, "hpm", ev, op) if "hpm" in data else None,
                         ecalls(out, "upstream", ev, op) if "upstream" in data else None, ""))

    def sampling(stack):
        """The overflow path's cost from the two perf record runs (periods
        100000 and 1000000): instructions (the loop's elapsed guest time),
        SBI calls and overflow interrupts per sample, each the difference
        between the runs over the difference in samples; and the driver
        that served perf."""
        runs = {}
        for p in (100000, 1000000):
            base = f"{out}/{stack}.sample.{p}"
            if stack not in data or not os.path.exists(base):
                return None
            vals = record_figures(base)
            for kind in ("ecalls", "lcofi"):
                try:
                    vals[kind] = int(open(f"{base}.{kind}").read())
                except (OSError, ValueError):
                    pass
            runs[p] = vals
        a, b = runs[100000], runs[1000000]
        res = {}
        if all(k in a and k in b for k in ("elapsed_ns", "loop_samples")) and \
                a["loop_samples"] != b["loop_samples"]:
            res["insns"] = (a["elapsed_ns"] - b["elapsed_ns"]) / \
                (a["loop_samples"] - b["loop_samples"])
        if all(k in a and k in b for k in ("samples", "ecalls", "lcofi")) and \
                a["samples"] != b["samples"]:
            res["ecalls"] = (a["ecalls"] - b["ecalls"]) / (a["samples"] - b["samples"])
            res["lcofi"] = (a["lcofi"] - b["lcofi"]) / (a["samples"] - b["samples"])
        # From the boots under the tb-insns plugin (delegation's): the
        # overflow's instructions, and the driver's and the firmware's
        # share of them.
        ins = {}
        for p in (100000, 1000000):
            base = f"{out}/{stack}.sample.{p}.insn"
            try:
                ins[p] = {**categories(f"{base}.cat"), **record_figures(base)}
            except (OSError, ValueError):
                break
        keys = ("elapsed_ns", "loop_samples", "driver", "firmware")
        if len(ins) == 2 and all(k in v for v in ins.values() for k in keys) and \
                ins[100000]["loop_samples"] != ins[1000000]["loop_samples"]:
            d = ins[100000]["loop_samples"] - ins[1000000]["loop_samples"]
            res["plugin_insns"] = (ins[100000]["elapsed_ns"] - ins[1000000]["elapsed_ns"]) / d
            for k in ("driver", "firmware"):
                res[k + "_insns"] = (ins[100000][k] - ins[1000000][k]) / d
        dmesg = sections(f"{out}/{stack}.sample.100000").get("dmesg", [])
        if any(re.search(r"riscv-pmu-hpm: \d+ counters", l) for l in dmesg):
            res["driver"] = "HPM driver"
        elif any(re.search(r"riscv-pmu-sbi: \d+ firmware and \d+ hardware counters", l)
                 for l in dmesg):
            res["driver"] = "SBI PMU driver"
        else:
            res["driver"] = "driver unknown"
        return res

    samp = {s: sampling(s) or {} for s in ("hpm", "upstream")}
    drivers = (f"HPM path: {samp['hpm'].get('driver', 'n/a')}, "
               f"SBI PMU path: {samp['upstream'].get('driver', 'n/a')}")
    for key, label in (("insns", "instructions per overflow interrupt"),
                       ("ecalls", "SBI calls per overflow interrupt"),
                       ("lcofi", "overflow interrupts (LCOFI) per sample")):
        rows.append((f"perf record -e instructions, virt with Sscofpmf: {label} ({drivers})",
                     samp["hpm"].get(key), samp["upstream"].get(key), ""))

    def sampling32(stack):
        """The RV32 guest's overflow cost (bench/run, issue 21): instructions
        per overflow from the two periods' runs, SBI calls per overflow
        from the trap log (the ecalls after each LCOFI), LCOFIs per sample,
        and the driver."""
        runs = {}
        for p in (100000, 1000000):
            base = f"{out}/{stack}.sample32.{p}"
            if stack not in data or not os.path.exists(base):
                return {}
            vals = {}
            for line in open(base):
                for m in re.finditer(r"(elapsed_ns|samples)=(\d+)", line):
                    vals[m.group(1)] = int(m.group(2))
                if line.startswith("# driver="):
                    vals["driver"] = line.strip().split("=", 1)[1]
            for kind in ("ecalls", "lcofi"):
                try:
                    vals[kind] = int(open(f"{base}.{kind}").read())
                except (OSError, ValueError):
                    pass
            try:
                vals["handler"] = float(open(f"{base}.handler").read())
            except (OSError, ValueError):
                pass
            runs[p] = vals
        a, b = runs[100000], runs[1000000]
        res = {"driver": {"hpm": "HPM driver", "sbi": "SBI PMU driver"}.get(
            a.get("driver"), "driver unknown")}
        if all(k in a and k in b for k in ("elapsed_ns", "samples")) and \
                a["samples"] != b["samples"]:
            res["insns"] = (a["elapsed_ns"] - b["elapsed_ns"]) / \
                (a["samples"] - b["samples"])
        if "handler" in a:
            res["ecalls"] = a["handler"]
        if a.get("samples"):
            res["lcofi"] = a.get("lcofi", 0) / a["samples"]
        res["samples"] = a.get("samples")
        return res

    s32 = {s: sampling32(s) for s in ("hpm", "upstream")}
    drivers32 = (f"HPM path: {s32['hpm'].get('driver', 'n/a')}, "
                 f"SBI PMU path: {s32['upstream'].get('driver', 'n/a')}")
    for key, label in (("insns", "instructions per overflow interrupt"),
                       ("ecalls", "SBI calls per overflow interrupt (the handler's, from the trap log)"),
                       ("lcofi", "overflow interrupts (LCOFI) per sample"),
                       ("samples", "samples at period 100000 over 10^7 loop instructions")):
        rows.append((f"RV32 guest, sampling instructions, virt with Sscofpmf: {label} ({drivers32})",
                     s32["hpm"].get(key), s32["upstream"].get(key), ""))

    def sbicost(stack, name):
        path = f"{out}/{stack}.sbicost"
        if stack not in data or not os.path.exists(path):
            return None
        for line in open(path):
            f = line.split()
            if len(f) == 4 and f[:2] == ["#", "cost"] and f[2] == name:
                return float(f[3])
        return None

    rows.append(("SBI round trip, BASE get_spec_version (instructions)",
                 sbicost("hpm", "base_get_spec_version"),
                 sbicost("upstream", "base_get_spec_version"), ""))
    for name in ("SET_MEVENT", "SET_MCOUNTER", "INHIBIT_SET", "INHIBIT_CLEAR",
                 "GET_MCOUNTER", "GET_INFO"):
        rows.append((f"HPM call round trip, {name} (instructions)",
                     sbicost("hpm", name), None, ""))

    def fixed(stack, n):
        a, b = get(stack, "ov", f"true-{n}"), get(stack, "ov", "true-bare")
        return None if a is None or b is None else float(a - b)

    def prop(stack, n, work="loop"):
        a, b = get(stack, "ov", f"{work}-{n}"), get(stack, "ov", f"{work}-bare")
        f = fixed(stack, n)
        if a is None or b is None or f is None:
            return None
        return (a - b - f) * 100.0 / b

    for n in (2, 6, 16):
        rows.append((f"perf stat fixed cost, {n} events (instructions)",
                     fixed("hpm", n), fixed("upstream", n), ""))
    for n in (2, 6, 16):
        rows.append((f"perf stat proportional overhead, known loop, {n} events",
                     prop("hpm", n), prop("upstream", n), "%"))
    for n in (2, 6, 16):
        rows.append((f"perf stat proportional overhead, matmul naive 120, {n} events",
                     prop("hpm", n, "matmul"), prop("upstream", n, "matmul"), "%"))
    for n in (2, 6, 16):
        rows.append((f"perf stat proportional overhead, intmix (CoreMark-like), {n} events",
                     prop("hpm", n, "intmix"), prop("upstream", n, "intmix"), "%"))

    # What each side counts of the perf stat event sets, so that the
    # overhead rows above say whether they time the same work.
    def counted_label(stack, n):
        c = counted(f"{out}/{stack}.overhead", n) if stack in data else None
        if c is None:
            return "n/a"
        return f"{c[0]} of {c[1]}, each >= {c[2]:.0f} % of the time"

    for n in (2, 6, 16):
        rows.append((f"perf stat -e (the {n} events of the overhead rows): events counted",
                     counted_label("hpm", n), counted_label("upstream", n), "text"))

    def mv(stack, n, key):
        if stack not in data:
            return None
        return data[stack]["many"].get(n, {}).get(key)

    def per_on(stack, n):
        sw, on = mv(stack, n, "switch"), mv(stack, n, "on")
        return None if sw is None or not on else sw / on

    for n in (10, 100, 1000):
        for key, label in (("open", "open"), ("enable", "enable"),
                           ("read", "read"), ("disable", "disable"),
                           ("close", "close")):
            rows.append((f"{n} events on one task (one group each): {label}, per event",
                         mv("hpm", n, key), mv("upstream", n, key), ""))
        rows.append((f"{n} events on one task: switch away and back (with a task on the same hart), per switch",
                     mv("hpm", n, "switch"), mv("upstream", n, "switch"), ""))
        rows.append((f"{n} events on one task: events on a counter, on average",
                     mv("hpm", n, "on"), mv("upstream", n, "on"), ""))
        rows.append((f"{n} events on one task: per switch, per event on a counter",
                     per_on("hpm", n), per_on("upstream", n), ""))

    def mux_err(stack):
        sec = sections(f"{out}/{stack}.mux")

        def r2(name):
            for line in sec.get(name, []):
                f = line.split(",")
                if len(f) > 4 and f[2] == "r2" and f[0].isdigit():
                    return int(f[0]), float(f[4] or 0)
            return None
        alone, mux = r2("alone"), r2("mux")
        if not alone or not mux or alone[0] == 0:
            return None
        return (mux[0] - alone[0]) * 100.0 / alone[0]

    rows.append(("u74, r2 multiplexed among 6 raw events: scaled estimate vs counted alone",
                 mux_err("hpm"), mux_err("upstream"), "%"))

    def err(stack, ev):
        c = get(stack, "ov", "count-" + ev)
        return None if c is None else (c - LOOP_INSNS) * 100.0 / LOOP_INSNS

    for ev in ("instructions", "r2"):
        rows.append((f"known loop, {ev}: error against the exact count",
                     err("hpm", ev), err("upstream", ev), "%"))

    print("# Benchmarks: HPM path against upstream's SBI PMU path\n")
    print("Same kernel image, QEMU 10 `virt`, `-icount shift=0`: every figure")
    print("is instructions retired in all privilege modes (guest time), or a")
    print("count of traps. Both paths boot OpenSBI v1.9 built from the same")
    print("source by `scripts/build-opensbi`. HPM path: with the project's HPM")
    print("patch, and the HPM perf driver. Upstream path: pristine, and the SBI")
    print("PMU driver. Produced by `make bench` (bench/run).\n")
    print("The `virt` guests of the operation, perf stat and many-event rows")
    print("boot QEMU's device tree with a raw-event map")
    print("(riscv,raw-event-to-mhpmcounters) for every raw event the bench")
    print("opens, so that the SBI PMU driver counts the raw events of the")
    print("perf stat rows too; the \"events counted\" rows say what each path")
    print("counted of each set.\n")
    print("The many-event rows (`perfops many N`) open N events on one task,")
    print("alternately instructions and cycles, each a group of its own, and")
    print("give the cost of one operation on one event among N (the enables")
    print("one by one, the k-th with k - 1 others on), and of a switch away")
    print("from the task and back with another task on the same hart, less")
    print("the same switch with no event: per switch, and per switch and")
    print("event on a counter (the SBI PMU driver multiplexes the events it")
    print("has no counter for; the HPM driver shares cycle and instret among")
    print("all of them).\n")
    print("The sampling rows (perf record on `virt` with Sscofpmf and")
    print("Smcntrpmf) name the driver that served perf on each firmware.\n")
    print("The RV32 rows boot the RV32 guest (the same series built for RV32,")
    print("its /init guest/rv32/hpm32): one sampling run of instructions over")
    print("10^7 loop instructions per period; the SBI calls per overflow are")
    print("the S-mode ecalls that follow each overflow interrupt in QEMU's")
    print("trap log.\n")
    print("| figure | HPM path | SBI PMU path | ratio HPM / SBI PMU |")
    print("|---|---|---|---|")
    for label, h, u, unit in rows:
        if unit == "text":
            print(f"| {label} | {h} | {u} |  |")
            continue
        print(f"| {label} | {fmt(h, unit)} | {fmt(u, unit)} | "
              f"{ratio(h, u) if unit != '%' else ''} |")
    print()

    # Where each goal of the benchmark issue stands, from the rows above.
    def row(label, table=rows):
        for r in table:
            if r[0] == label:
                return r
        return (label, None, None, "")

    def rat(label, table=rows):
        _, h, u, _ = row(label, table)
        return None if h is None or u in (None, 0) else h / u

    def verdict(ok):
        return "n/a" if ok is None else ("met" if ok else "not met")

    def le(v, lim):
        return None if v is None else v <= lim

    def goal_table(column, goals):
        print(f"| goal | {column} | verdict |")
        print("|---|---|---|")
        for label, val, lim in goals:
            shown = "n/a" if val is None else f"{val:.3g}"
            print(f"| {label} | {shown} | {verdict(le(val, lim))} |")
        print()

    def many_rat(a, b):
        return None if a is None or b in (None, 0) else a / b

    # Overhead rows where the HPM path costs more than the SBI PMU path.
    worse, compared = 0, 0
    for label, h, u, unit in rows:
        if label.startswith("perf stat proportional overhead") and \
                h is not None and u is not None:
            compared += 1
            worse += h > u

    goals = [
        ("enable+disable of one event <= 0.6 of SBI PMU",
         rat("enable+disable, 1 event: instructions"), 0.6),
        ("open+close <= 0.9 of SBI PMU",
         rat("open+close, 1 event: instructions"), 0.9),
        ("read through the mmap page < 100 instructions",
         row("mmap-read, 1 event: instructions")[1], 99.999),
        ("read syscall no worse than SBI PMU",
         rat("read, 1 event: instructions"), 1.0),
        ("no SBI call to enable/disable an event on a fixed counter",
         row("SBI calls per enable+disable, 1 event: instructions")[1], 0.0),
        ("at most one SBI call per operation otherwise (enable+disable: 2)",
         row("SBI calls per enable+disable, 1 event: dTLB-load-misses (programmable)")[1], 2.0),
        ("start or stop of a group of 4: at most one SBI call each (2 per pair)",
         row("SBI calls per enable+disable, group of 4")[1], 2.0),
        ("proportional overhead with 6 events < 0.1 % (known loop)",
         row("perf stat proportional overhead, known loop, 6 events")[1], 0.1),
        (f"every perf stat proportional overhead row at or below SBI PMU's "
         f"(rows above it, of {compared})", worse if compared else None, 0),
        ("per-event enable at 1,000 events <= 1.5x its cost at 10",
         many_rat(mv("hpm", 1000, "enable"), mv("hpm", 10, "enable")), 1.5),
        ("per-event enable at 1,000 events <= SBI PMU's",
         many_rat(mv("hpm", 1000, "enable"), mv("upstream", 1000, "enable")), 1.0),
        ("1,000 events, per switch per event on a counter <= SBI PMU's",
         many_rat(per_on("hpm", 1000), per_on("upstream", 1000)), 1.0),
    ]
    print("## Goals\n")
    tot = many_rat(mv("hpm", 1000, "switch"), mv("upstream", 1000, "switch"))
    if tot is not None:
        print(f"With 1,000 events on the task, the HPM driver keeps "
              f"{mv('hpm', 1000, 'on'):.0f} of them on counters and the SBI "
              f"PMU driver {mv('upstream', 1000, 'on'):.0f}: a switch costs "
              f"{tot:.2f} times the SBI PMU path's in all.\n")
    goal_table("HPM path", goals)

    # Counter delegation: its own table, the same kernel and OpenSBI
    # build on virt-cdeleg, HPM driver against SBI PMU driver.
    drows = []
    for key, label in (("prog", "1 event: dTLB-load-misses (programmable)"),
                       ("group4", "group of 4")):
        for op in ("open+close", "enable+disable", "read", "mmap-read"):
            drows.append((f"{op}, {label}: instructions",
                          get("cdeleg", "ops", (key, op)),
                          get("cdeleg-sbi", "ops", (key, op)), ""))
        for op in ("enable+disable", "read"):
            drows.append((f"SBI calls per {op}, {label}",
                          ecalls(out, "cdeleg", key, op),
                          ecalls(out, "cdeleg-sbi", key, op), ""))
    dsamp = {s: (sampling(s) or {}) if s in data else {} for s in DELEG}
    for key, label in (("insns", "instructions per overflow interrupt"),
                       ("ecalls", "SBI calls per overflow interrupt")):
        drows.append((f"perf record -e instructions: {label}",
                      dsamp["cdeleg"].get(key), dsamp["cdeleg-sbi"].get(key), ""))

    def drat(label):
        return rat(label, drows)

    def dval(label):
        return row(label, drows)[1]

    print("## Counter delegation (virt-cdeleg)\n")
    print("QEMU `virt` with Smcdeleg, Ssccfg, Smcsrind, Sscsrind, Smstateen,")
    print("Sscofpmf and Smcntrpmf (profile `virt-cdeleg`), pristine OpenSBI")
    print("v1.9, which delegates every counter to S-mode, the same kernel")
    print("image: the HPM driver programming the delegated counters itself")
    print("against the SBI PMU driver on the same CPU and firmware")
    print("(`riscv_pmu_hpm.enable=0` on the command line). Drivers that served")
    print(f"perf: {dsamp['cdeleg'].get('driver', 'n/a')}, "
          f"{dsamp['cdeleg-sbi'].get('driver', 'n/a')}.\n")
    print("| figure | delegated counters | SBI PMU driver | ratio |")
    print("|---|---|---|---|")
    for label, h, u, _ in drows:
        print(f"| {label} | {fmt(h)} | {fmt(u)} | {ratio(h, u)} |")
    print()
    dgoals = [
        ("0 SBI calls per enable+disable",
         dval("SBI calls per enable+disable, 1 event: dTLB-load-misses (programmable)"), 0.0),
        ("0 SBI calls per group enable+disable",
         dval("SBI calls per enable+disable, group of 4"), 0.0),
        ("0 SBI calls per read", dval("SBI calls per read, 1 event: dTLB-load-misses (programmable)"), 0.0),
        ("0 SBI calls per overflow",
         dval("perf record -e instructions: SBI calls per overflow interrupt"), 0.0),
        ("instructions per enable+disable <= 0.5 of the SBI PMU driver's",
         drat("enable+disable, 1 event: dTLB-load-misses (programmable): instructions"), 0.5),
        ("instructions per overflow <= 0.5 of the SBI PMU driver's",
         drat("perf record -e instructions: instructions per overflow interrupt"), 0.5),
    ]
    goal_table("delegated counters", dgoals)

    # Where the instructions go: the same boots as the SBI call counts.
    brows = []
    for stack, name in (("hpm", "HPM driver, HPM extension (virt)"),
                        ("upstream", "SBI PMU driver (virt)"),
                        ("cdeleg", "HPM driver, delegated counters (virt-cdeleg)"),
                        ("cdeleg-sbi", "SBI PMU driver (virt-cdeleg)")):
        for ev, label in (("instructions", "instructions"),
                          ("prog", "dTLB-load-misses"), ("group4", "group of 4")):
            for op in ("enable+disable", "open+close", "read"):
                b = breakdown(out, stack, ev, op)
                if b is not None:
                    brows.append((name, f"{op}, {label}", b))
    if brows:
        repeat = brows[0][2]["n"]
        print("## Where the instructions go\n")
        print("Each operation's instructions by who ran them, from QEMU's")
        print("`tb-insns` plugin (`bench/tb-insns.c`, sorted by")
        print("`bench/tb-categories.py`): the difference between a boot with")
        print(f"{repeat:,} operations and one with none, over {repeat:,} (the")
        print("kernel's background work in the longer boot adds a few tens to")
        print("\"kernel\"). \"firmware\" is M-mode (OpenSBI), \"driver\" the")
        print("RISC-V PMU drivers and the kernel's SBI call wrappers, \"perf")
        print("core\" `kernel/events`, \"kernel\" the rest of the kernel")
        print("(system call entry and exit, locks, the clock), \"user\" the")
        print("program (`perfops`).\n")
        print("| driver | operation | firmware | driver | perf core | kernel | user | total |")
        print("|---|---|---|---|---|---|---|---|")
        for name, op, b in brows:
            cells = " | ".join(fmt(b[k]) for k in CATEGORIES + ("total",))
            print(f"| {name} | {op} | {cells} |")
        print()
        # What every driver pays, against the ratio goals.
        for stack, ev, label, goal, column in (
                ("upstream", "instructions", "enable+disable of one event", 0.6,
                 "HPM path"),
                ("upstream", "instructions", "open+close of one event", 0.9,
                 "HPM path"),
                ("cdeleg-sbi", "prog", "enable+disable of one event on delegated counters",
                 0.5, "delegated counters")):
            ours = "hpm" if stack == "upstream" else "cdeleg"
            op = label.split(" ", 1)[0]
            b, h = breakdown(out, stack, ev, op), breakdown(out, ours, ev, op)
            if b is None or h is None:
                continue
            common = b["perf-core"] + b["kernel"] + b["user"]
            left = goal * b["total"] - common
            print(f"- {label} ({column} goal: {goal} of the SBI PMU driver's "
                  f"{b['total']:,.0f}): perf core, the rest of the kernel and user "
                  f"space take {common:,.0f} of the SBI PMU path's instructions "
                  f"({common / b['total']:.2f} of it), and as much on ours "
                  f"({h['perf-core'] + h['kernel'] + h['user']:,.0f}); "
                  f"{goal} of its total leaves {left:,.0f} for driver and "
                  f"firmware, where ours take {h['driver'] + h['firmware']:,.0f} "
                  f"(the SBI PMU driver and its firmware "
                  f"{b['driver'] + b['firmware']:,.0f}).")
        # The overflow: its total from the loop's guest time, the
        # driver's and firmware's share from the plugin (the rest of the
        # boot also holds perf record's work per sample, not the
        # overflow's).
        o, u = dsamp.get("cdeleg", {}), dsamp.get("cdeleg-sbi", {})
        if all(k in d for d in (o, u) for k in ("plugin_insns", "driver_insns", "firmware_insns")):
            own_u = u["driver_insns"] + u["firmware_insns"]
            own_o = o["driver_insns"] + o["firmware_insns"]
            tot_u = u["plugin_insns"]
            rest_u, rest_o = tot_u - own_u, o["plugin_insns"] - own_o
            print(f"- an overflow on delegated counters (goal: 0.5 of the SBI PMU "
                  f"driver's, {tot_u:,.0f} in the boots under the plugin): its "
                  f"driver and firmware take {own_u:,.0f}, the rest (the "
                  f"interrupt's entry and exit, perf core's sample) {rest_u:,.0f} "
                  f"({rest_u / tot_u:.2f} of it), and {rest_o:,.0f} on ours; "
                  f"0.5 of its total leaves {0.5 * tot_u - rest_u:,.0f} for "
                  f"driver and firmware, where ours take {own_o:,.0f}.")
        print()

    for line in rtl_section(f"{out}/rtl-cva6.out"):
        print(line)

    # Chart: operation costs on one event (instructions), both paths.
    dat = os.path.join(out, "chart.dat")
    with open(dat, "w") as f:
        for op in OPS:
            h = get("hpm", "ops", ("instructions", op))
            u = get("upstream", "ops", ("instructions", op))
            f.write(f'"{op}" {h if h is not None else 0} {u if u is not None else 0}\n')
    png = os.path.join(os.path.dirname(out), "results.png")
    script = f"""
set terminal pngcairo size 800,450 noenhanced
set output '{png}'
set title 'perf operation cost on one event (instructions retired, all modes)'
set style data histogram
set style histogram cluster gap 1
set style fill solid border -1
set logscale y
set ylabel 'instructions'
set grid ytics
plot '{dat}' using 2:xtic(1) title 'HPM path', '' using 3 title 'SBI PMU path'
"""
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True,
                       capture_output=True)
        print("![operation costs](results.png)\n")
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"(chart not drawn: {e})\n")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--update-rtl":
        # report.py --update-rtl RESULTS_MD RUN_RTL_LOG
        update_rtl(sys.argv[2], sys.argv[3])
    else:
        main()
