#!/usr/bin/env bash
# The Python kit's CI (make kit-python): a fresh venv with the kit installed
# as a user installs it, ruff and pytest over the kit and the port, then
# conform through the example adapter, which must fail exactly the port's
# known cases (testdata/ports/python/baseline.yaml, from its answer key).
set -euo pipefail
cd "$(dirname "$0")/../../.."
conform=${CONFORM_BIN:-$PWD/bin/conform}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
venv=$work/venv

echo "-- venv, pip install ./adapters/kits/python pytest ruff"
"${PYTHON:-python3}" -m venv "$venv"
"$venv/bin/pip" install -q ./adapters/kits/python pytest ruff

echo "-- ruff"
"$venv/bin/ruff" check adapters/kits/python testdata/ports/python testdata/ports/rust/attribute.py
"$venv/bin/ruff" format --check adapters/kits/python testdata/ports/python testdata/ports/rust/attribute.py

echo "-- pytest (the installed kit; its tests use $conform)"
(cd adapters/kits/python && CONFORM_BIN="$conform" "$venv/bin/python" -m pytest -q -p no:cacheprovider)

adapter="$venv/bin/python adapters/kits/python/examples/port_adapter.py"
echo "-- conform run through the example adapter (the Python port), with its baseline: exit 0"
"$conform" run --adapter "$adapter" --baseline testdata/ports/python/baseline.yaml

echo "-- without the baseline: exit 1, and the failing cases are exactly the baseline's"
set +e
"$conform" run --format json --out "$work/port.json" --adapter "$adapter" >/dev/null 2>&1
status=$?
set -e
if [ "$status" -ne 1 ]; then echo "conform exited $status, want 1 (nonconformant)" >&2; exit 1; fi
"$venv/bin/python" - "$work/port.json" testdata/ports/python/baseline.yaml <<'PY'
import re, sys
from conform_adapter import parse
report = parse(open(sys.argv[1], "rb").read())
failed = {c["id"] for c in report["cases"] if c["verdict"] != "pass"}
known = set(re.findall(r'^- id: "([^"]+)"', open(sys.argv[2], encoding="utf-8").read(), re.M))
if failed != known:
    print("new failures:", sorted(failed - known), "\nfixed:", sorted(known - failed), file=sys.stderr)
    sys.exit(1)
print(f"the port fails exactly its {len(known)} known cases")
PY
echo "-- every failing case explained by the port's answer key, and conform's diagnosis against the key (issue 20: blame equals the key in >= 95% of cases, same failed list)"
"$venv/bin/python" testdata/ports/python/attribute.py "$work/port.json" --check > "$work/attribution.yaml"
sed -n '1,8p' "$work/attribution.yaml"
