#!/bin/sh
# check-log's resource figures (issue 23), measured with /usr/bin/time -v:
#   tree: 200,000 small clean logs (peak RSS, text and JSON; target <= 100 MB)
#   big:  the 200 MiB sessionlog.Big log (seed 1), check-log against
#         `jq -c . >/dev/null` and Node reading it line by line with
#         JSON.parse, interleaved in rounds (user CPU; targets: >= 10x jq,
#         >= 3x node)
# Usage: internal/logcheck/testdata/bench.sh [tree|big|all] [ROUNDS]
# from the module root. Needs jq and node for big. Writes under ${TMPDIR:-/tmp}.
set -eu
what=${1:-all}
rounds=${2:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/checklog-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/conform" ./cmd/conform
uptime

# measure LABEL CMD...: one run, its user CPU seconds and peak RSS.
measure() {
	label=$1
	shift
	/usr/bin/time -v "$@" >/dev/null 2>"$work/time" || true
	user=$(sed -n 's/^[[:space:]]*User time (seconds): //p' "$work/time")
	rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$work/time")
	echo "$label user ${user}s maxrss $((rss / 1024)) MiB"
}

if [ "$what" = tree ] || [ "$what" = all ]; then
	go run ./internal/logcheck/testdata/mklogs tree "$work/tree" 200000
	measure "check-log text, 200000 logs" "$work/conform" check-log "$work/tree"
	measure "check-log json, 200000 logs" "$work/conform" check-log --format json "$work/tree"
	rm -rf "$work/tree"
fi

if [ "$what" = big ] || [ "$what" = all ]; then
	go run ./internal/logcheck/testdata/mklogs big "$work/big.jsonl" 200
	cat >"$work/parse.js" <<'JS'
const rl = require("readline").createInterface({ input: require("fs").createReadStream(process.argv[2]), crlfDelay: Infinity });
let n = 0;
rl.on("line", (l) => { JSON.parse(l); n++; });
rl.on("close", () => console.log(n));
JS
	i=1
	while [ "$i" -le "$rounds" ]; do
		measure "round $i check-log" "$work/conform" check-log "$work/big.jsonl"
		measure "round $i node" node "$work/parse.js" "$work/big.jsonl"
		measure "round $i jq" sh -c "jq -c . '$work/big.jsonl' >/dev/null"
		i=$((i + 1))
	done
fi
uptime
