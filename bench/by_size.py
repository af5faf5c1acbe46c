#!/usr/bin/env python3
"""Per-operation, per-size summary of a jet-bench-image JSON (--json) as a
Markdown table: configurations within all their targets, the worst ratio to
the same-bytes copy, and the lowest NPP/jetrt and CV-CUDA/jetrt ratios (below
1.00 where jetrt is slower; '-' where the peer has no such operation).

    python3 bench/by_size.py RESULTS.json > RESULTS-by-size.md
"""
import json
import sys


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1]) as f:
        doc = json.load(f)
    groups = {}
    for r in doc["results"]:
        size = "%dx%d" % (r["width"], r["height"])
        groups.setdefault((r["table_op"], size), []).append(r)
    order = []
    for r in doc["results"]:
        if r["table_op"] not in order:
            order.append(r["table_op"])
    sizes = sorted({k[1] for k in groups}, key=lambda s: [int(v) for v in s.split("x")])
    print("| operation | size | configs met | worst vs copy | lowest NPP/jetrt | lowest CV-CUDA/jetrt |")
    print("|---|---|---|---|---|---|")
    for op in order:
        for size in sizes:
            rs = groups.get((op, size))
            if not rs:
                continue
            ok = [r for r in rs if r.get("jetrt") == "ok"]
            met = sum(1 for r in ok if r.get("met"))
            worst = max((r["ratio"] for r in ok), default=None)
            npp = [r["npp_ratio"] for r in ok if r.get("npp") == "ok" and r.get("npp_ratio")]
            cv = [r["cvcuda_ratio"] for r in ok if r.get("cvcuda") == "ok" and r.get("cvcuda_ratio")]
            print("| %s | %s | %d/%d | %s | %s | %s |" % (
                op, size, met, len(rs), "%.2fx" % worst if worst is not None else "-",
                "%.2f" % min(npp) if npp else "-", "%.2f" % min(cv) if cv else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
