"""Sorts an Autobahn fuzzing-client report of the live endpoint into what
RELIABILITY.md counts: cases passed, frames refused with the code the case
expects (after the endpoint's `error` message, which Autobahn rates as an
unexpected message), and messages the endpoint does not take (text that is
not one of its JSON messages: 1008; binary: 1003) where Autobahn expects an
echo server. Anything else is listed case by case."""

import collections
import json
import os
import sys


def main(path):
    cases = json.load(open(path))["touchtracker"]
    folder = os.path.dirname(path)
    sorted_cases = collections.defaultdict(list)
    for case in sorted(cases, key=lambda k: tuple(int(x) for x in k.split("."))):
        entry = cases[case]
        report = json.load(open(os.path.join(folder, entry["reportfile"])))
        messages = [event[1] for event in report["received"] if event[0] == "message"]
        first = messages[0] if messages else ""
        code = entry.get("remoteCloseCode")
        passed = entry["behavior"] in ("OK", "NON-STRICT", "INFORMATIONAL")
        if passed and entry["behaviorClose"] in ("OK", "INFORMATIONAL"):
            what = "passed (%s)" % entry["behavior"]
        elif entry["behaviorClose"] == "OK" and "error" in first and "JSON" not in first:
            what = "refused with the expected code %s, after an error message" % code
        elif "Invalid JSON" in first or "Binary message" in first:
            what = "not a message of this endpoint (an echo expected): error, close %s" % code
        else:
            what = "other: %s, close %s, code %s" % (entry["behavior"], entry["behaviorClose"], code)
        sorted_cases[what].append(case)
    print("Autobahn fuzzing client: %d cases" % len(cases))
    for what, ids in sorted(sorted_cases.items()):
        print("%4d %s: %s" % (len(ids), what, " ".join(ids)))


if __name__ == "__main__":
    main(sys.argv[1])
