#!/usr/bin/env python3
"""make report: merge the parts of each suite that ran on one revision.

Every output of scripts/check/test.sh saved under results/ carries its stamp
('# stamp: KEY VALUE' lines, scripts/report/stamp.sh) and the suite's whole
check list ('# plan: SUITE NAME...'). Parts merge only when their stamp ids
are the same: a check counts from the newest part that ran it. A part cut
off before its closing line (a session's end) counts for the checks it
finished: test.sh writes a check's line when the check is done, and stamps
again after each one. Writes results/<id>/summary-<suite>.md for each
revision and suite, and the index results/README.md. With FILE arguments,
merges just those and prints the summary; with --passed DIR SUITE [CHECK...],
prints the checks that passed in the parts of SUITE in DIR (test.sh's
RESUME=1; the CHECKs are the run's plan, which the parts must share).
Exit status 1 when parts are refused (different ids or suites, no stamp, no
finished check, a part in another revision's folder).
Usage: report.py [--results DIR] [FILE...] | report.py --passed DIR SUITE [CHECK...]
"""
import os
import re
import sys
from datetime import datetime, timezone

SUITES = ["test", "check", "full", "torture", "torture-rcu", "wide", "distro"]
TARGET = {"test": "make test", "check": "make check", "full": "make test-full",
          "torture": "make test-torture", "torture-rcu": "make test-torture-rcu",
          "wide": "make check-wide", "distro": "make test-distro"}


class Refused(Exception):
    pass


def parse(path):
    """One part: its stamp, suite, plan, start time and results per check.
    The stamp, plan and start are read before the '1..N' line only; a check's
    line counts only with the next number, so no log tail quoted in the
    output can pass for a result."""
    part = {"path": path, "name": os.path.basename(path), "stamp": {}, "suite": None,
            "plan": [], "started": "", "checks": {}, "closed": None, "changed": None,
            "took": ""}
    current, head, k = None, True, 0
    with open(path, encoding="utf-8", errors="replace", newline="\n") as f:
        for line in f:
            if not line.endswith("\n"):
                break  # cut off while it was written: not a whole line
            line = line.rstrip("\n")
            if head:
                m = re.match(r"# (stamp|plan|started): (\S+) ?(.*)$", line)
                if m and m.group(1) == "stamp":
                    part["stamp"][m.group(2)] = m.group(3)
                elif m and m.group(1) == "plan":
                    part["suite"], part["plan"] = m.group(2), m.group(3).split()
                elif m:
                    part["started"] = m.group(2)
                head = not re.match(r"1\.\.\d+$", line)
                continue
            m = re.match(r"    (not )?ok \d+ (.*)$", line)
            if m and current is not None:
                current["sub"].append((m.group(1) is None, m.group(2)))
                continue
            m = re.match(r"    # Subtest: (\S+)$", line)
            if m:
                current = {"ok": None, "sub": [], "note": ""}
                continue
            m = re.match(r"(not )?ok (\d+) - (\S+)(?: # (.*))?$", line)
            if m and int(m.group(2)) == k + 1:
                k += 1
                c = current if current is not None else {"ok": None, "sub": [], "note": ""}
                c["ok"], c["note"] = m.group(1) is None, m.group(4) or ""
                part["checks"][m.group(3)] = c
                current = None
                continue
            m = re.match(r"# suite \S+: (\d+ s.*)$", line)
            if m:
                part["took"] = m.group(1)
            m = re.match(r"# stamp: changed-during-run (\S+)$", line)
            if m:
                part["changed"] = m.group(1)
            m = re.match(r"(\d+) passed, (\d+) failed$", line)
            if m:
                part["closed"] = (int(m.group(1)), int(m.group(2)))
    if "id" not in part["stamp"] or part["stamp"]["id"] == "unknown":
        raise Refused(f"{path}: no stamp ('# stamp: id ...'): it cannot say what it ran on")
    if not part["suite"]:
        raise Refused(f"{path}: no '# plan:' line: not a saved output of scripts/check/test.sh")
    if part["changed"]:
        raise Refused(f"{path}: the code changed during the run (from {part['stamp']['id']} "
                      f"to {part['changed']}): it ran on no one revision")
    if part["closed"]:
        got = [sum(x) for x in zip(*(counts(c) for c in part["checks"].values()))] or [0, 0]
        if tuple(got[:2]) != part["closed"]:
            raise Refused(f"{path}: its closing line says {part['closed'][0]} passed, "
                          f"{part['closed'][1]} failed, its results {got[0]} and {got[1]}")
    return part


def counts(c):
    """passed, failed, known, skipped of one check, as test.sh counts them."""
    if not c["sub"]:
        return (1, 0, 0, 0) if c["ok"] else (0, 1, 0, 0)
    p = f = k = s = 0
    for ok, text in c["sub"]:
        if "# TODO" in text:
            k += 1
        elif not ok:
            f += 1
        elif "# SKIP" in text:
            s += 1
        else:
            p += 1
    return p, f, k, s


def merge(parts):
    """The summary of parts of one suite on one revision. A part that did not
    finish (no closing line: cut off, or still running) counts for the checks
    it finished; one that finished none is left out, and refused when no
    part finished a check."""
    if not any(p["closed"] or p["checks"] for p in parts):
        raise Refused("no finished check in: " + ", ".join(p["path"] for p in parts))
    parts = [p for p in parts if p["closed"] or p["checks"]]
    incomplete = [p for p in parts if not p["closed"]]
    ids = {p["stamp"]["id"] for p in parts}
    if len(ids) > 1:
        raise Refused("parts from different revisions, not merged:\n" + "\n".join(
            f"  {p['path']}: {p['stamp']['id']} (project {p['stamp'].get('project', '?')})"
            for p in parts))
    suites = {p["suite"] for p in parts}
    if len(suites) > 1:
        raise Refused("parts of different suites, not merged:\n" + "\n".join(
            f"  {p['path']}: suite {p['suite']}" for p in parts))
    plans = {tuple(p["plan"]) for p in parts}
    if len(plans) > 1:
        raise Refused("parts with different check lists, not merged: " +
                      ", ".join(p["path"] for p in parts))
    parts = sorted(parts, key=lambda p: (p["started"], p["name"]))
    rows, tot = [], [0, 0, 0, 0]
    for name in parts[0]["plan"]:
        ran = [p for p in parts if name in p["checks"]]
        if not ran:
            rows.append((name, "not run", "", "", ""))
            continue
        last = ran[-1]
        c = last["checks"][name]
        cnt = counts(c)
        tot = [a + b for a, b in zip(tot, cnt)]
        earlier = [p["name"] for p in ran[:-1] if not p["checks"][name]["ok"]]
        res = "ok" if c["ok"] else "not ok"
        if c["sub"]:
            res += f" ({cnt[0]} passed, {cnt[1]} failed" + \
                (f", {cnt[2]} known base failures" if cnt[2] else "") + \
                (f", {cnt[3]} skipped" if cnt[3] else "") + ")"
        note = "failed earlier in " + ", ".join(earlier) if earlier else ""
        took = re.match(r"(\d+ s(?:, ccache .*)?)$", c["note"])
        rows.append((name, res, last["name"], took.group(1) if took else "", note))
    return {"id": parts[0]["stamp"]["id"], "suite": parts[0]["suite"], "parts": parts,
            "incomplete": incomplete,
            "rows": rows, "total": tot,
            "run": sum(1 for r in rows if r[1] != "not run"), "n": len(rows)}


def render(s):
    p0 = s["parts"][-1]
    whole = "whole" if s["run"] == s["n"] else f"partial ({s['run']} of {s['n']} checks run)"
    out = [f"# {TARGET.get(s['suite'], s['suite'])} on {s['id']}: {whole}, "
           f"{s['total'][0]} passed, {s['total'][1]} failed", "",
           "Written by `make report` (scripts/report/report.py) from the parts below, "
           "which share this stamp:", ""]
    out += [f"- {k}: {v}" for k, v in p0["stamp"].items() if k != "clang" or v != "not installed"]
    out += ["", "Parts: " + ", ".join(
        f"[`{p['name']}`]({p['name']}) (started {p['started'] or '?'}, project "
        f"{p['stamp'].get('project', '?').split()[0][:12]}" + (f"; {p['took']}" if p["took"] else "") + ")"
        for p in s["parts"]), ""]
    if s["incomplete"]:
        out += ["Cut off before the closing line (only the checks they finished count): " +
                ", ".join(f"`{p['name']}` ({len(p['checks'])} checks)" for p in s["incomplete"]), ""]
    if s["total"][2]:
        out += [f"Known base failures (not counted): {s['total'][2]}.", ""]
    out += ["| check | result | in | time | note |", "|---|---|---|---|---|"]
    out += [f"| {n} | {r} | {f'[{f}]({f})' if f else ''} | {t} | {note} |" for n, r, f, t, note in s["rows"]]
    out += ["", f"{s['total'][0]} passed, {s['total'][1]} failed"]
    return "\n".join(out) + "\n"


def revision(folder):
    """The parts and bench runs of one results/<id>/ folder, grouped by suite."""
    rid = os.path.basename(folder)
    by_suite, benches = {}, []
    for e in sorted(os.listdir(folder)):
        path = os.path.join(folder, e)
        if os.path.isdir(path) and os.path.exists(os.path.join(path, "table.md")):
            benches.append(e)
        if not (e.endswith(".txt") and os.path.isfile(path)):
            continue
        p = parse(path)
        if p["stamp"]["id"] != rid:
            raise Refused(f"{path}: ran on {p['stamp']['id']}, not {rid}: it belongs in results/{p['stamp']['id']}/")
        by_suite.setdefault(p["suite"], []).append(p)
    for b in benches:
        with open(os.path.join(folder, b, "stamp.txt"), encoding="utf-8") as f:
            got = re.search(r"^# stamp: id (\S+)", f.read(), re.M)
        if not got or got.group(1) != rid:
            raise Refused(f"{folder}/{b}/stamp.txt: ran on {got.group(1) if got else 'no stamp'}, not {rid}")
    sums, errors = {}, []
    for su, ps in by_suite.items():
        try:
            sums[su] = merge(ps)
        except Refused as e:
            errors.append(f"{rid}, suite {su}: {e}")
    return sums, benches, errors


def index(results, revs):
    """results/README.md: the current run of each suite, then every revision."""
    out = ["# Results", "",
           "Generated by `make report` (scripts/report/report.py): do not edit. Each",
           "`rev-*` folder holds the runs of one revision (its stamp: project code,",
           "patch-ids of both series, base SHA-256, toolchain), and a `summary-SUITE.md`",
           "that merges the parts of each suite run on it. `archive/` holds superseded",
           "runs; the entries at the top level without a stamp are the runs from before",
           "stamping that are still current.", "",
           "## Current run of each suite", "",
           "| suite | revision | state | date |", "|---|---|---|---|"]
    def when(s):
        return max(p["started"] for p in s["parts"])
    for suite in SUITES:
        cands = [(when(s), rid, s) for rid, (sums, _) in revs.items() for su, s in sums.items() if su == suite]
        if not cands:
            out.append(f"| {TARGET[suite]} | none stamped yet | | |")
            continue
        w, rid, s = max(cands)
        whole = "whole" if s["run"] == s["n"] else f"partial, {s['run']} of {s['n']} checks"
        out.append(f"| {TARGET[suite]} | [{rid}]({rid}/summary-{suite}.md) | {whole}: "
                   f"{s['total'][0]} passed, {s['total'][1]} failed | {w} |")
    bench = sorted((b, rid) for rid, (_, bs) in revs.items() for b in bs)
    if bench:
        b, rid = bench[-1]
        out += ["", f"Newest bench: [{rid}/{b}]({rid}/{b}/table.md)."]
    out += ["", "## Revisions", "", "| revision | project commit | suites | bench |", "|---|---|---|---|"]
    for rid, (sums, bs) in sorted(revs.items(), key=lambda r: max(
            [when(s) for s in r[1][0].values()] + [""])):
        proj = next((s["parts"][-1]["stamp"].get("project", "?") for s in sums.values()), "?")
        out.append(f"| {rid} | {proj.split()[0][:12] if proj else '?'} | " +
                   ", ".join(f"[{su}]({rid}/summary-{su}.md)" for su in sums) + " | " +
                   ", ".join(f"[{b}]({rid}/{b}/)" for b in bs) + " |")
    legacy = sorted(e for e in os.listdir(results)
                    if not e.startswith("rev-") and e not in ("archive", "README.md"))
    if legacy:
        out += ["", "## Before stamps", "",
                "Runs from before stamping that the README or docs still cite; they name "
                "their revision in their own text, if at all.", ""]
        groups = [("bench", r"\d{8}T"), ("make test-full", r"test-full-"), ("make test", r"test-"),
                  ("make check-wide", r"check-wide-"), ("make check", r"check-"),
                  ("make test-torture-rcu", r"torture-rcu-"), ("make test-torture", r"(torture|kexec)-"),
                  ("other", r"")]
        for title, rx in groups:
            mine = [e for e in legacy if re.match(rx, e)]
            legacy = [e for e in legacy if e not in mine]
            if mine:
                out.append(f"- {title}: " + ", ".join(f"[`{e}`]({e})" for e in mine))
    return "\n".join(out) + "\n"


def suite_of(path):
    """The suite a saved output names in its '# plan:' line, read cheaply."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"# plan: (\S+)", line)
            if m:
                return m.group(1)
            if re.match(r"1\.\.\d+$", line):
                break
    return None


def passed(folder, suite, plan):
    """The checks of SUITE whose newest result in folder's parts passed. The
    parts of other suites are not read; one of this suite with another plan
    (check list) than PLAN, when given, is refused."""
    parts = []
    if os.path.isdir(folder):
        for e in sorted(os.listdir(folder)):
            path = os.path.join(folder, e)
            if not (e.endswith(".txt") and os.path.isfile(path) and suite_of(path) == suite):
                continue
            p = parse(path)
            if p["stamp"]["id"] != os.path.basename(os.path.normpath(folder)):
                raise Refused(f"{path}: ran on {p['stamp']['id']}, not in its revision's folder")
            if plan and p["plan"] != plan:
                raise Refused(f"{path}: another check list than this run's: not the same suite")
            if p["checks"]:
                parts.append(p)
    if not parts:
        return []
    return [r[0] for r in merge(parts)["rows"] if r[1].startswith("ok")]


def main(argv):
    results = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results")
    if argv[:1] == ["--passed"]:
        if len(argv) < 3:
            print("usage: report.py --passed DIR SUITE [CHECK...]", file=sys.stderr)
            return 2
        try:
            print("\n".join(passed(argv[1], argv[2], argv[3:])))
        except Refused as e:
            print(f"ERROR: report: {e}", file=sys.stderr)
            return 1
        return 0
    if argv[:1] == ["--results"]:
        if len(argv) < 2:
            print("usage: report.py [--results DIR] [FILE...]", file=sys.stderr)
            return 2
        results, argv = argv[1], argv[2:]
    try:
        if argv:
            print(render(merge([parse(a) for a in argv])), end="")
            return 0
    except Refused as e:
        print(f"ERROR: report: {e}", file=sys.stderr)
        return 1
    if not os.path.isdir(results):
        print(f"ERROR: report: no folder {results}", file=sys.stderr)
        return 1
    revs, errors = {}, []
    for e in sorted(os.listdir(results)):
        folder = os.path.join(results, e)
        if not (e.startswith("rev-") and os.path.isdir(folder)):
            continue
        try:
            sums, benches, errs = revision(folder)
        except Refused as err:
            errors.append(str(err))
            continue
        errors += errs
        revs[e] = (sums, benches)
        for old in os.listdir(folder):
            if old.startswith("summary-") and old.endswith(".md"):
                os.remove(os.path.join(folder, old))
        for suite, s in sums.items():
            with open(os.path.join(folder, f"summary-{suite}.md"), "w", encoding="utf-8") as f:
                f.write(render(s))
            print(f"report: {e}/summary-{suite}.md: {s['run']} of {s['n']} checks, "
                  f"{s['total'][0]} passed, {s['total'][1]} failed")
    with open(os.path.join(results, "README.md"), "w", encoding="utf-8") as f:
        f.write(index(results, revs))
    print(f"report: {os.path.normpath(results)}/README.md: {len(revs)} stamped revisions")
    for err in errors:
        print(f"ERROR: report: {err}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
