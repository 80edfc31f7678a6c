#!/bin/bash
export PATH=/work/wt/45/node_modules/.bin:$PATH
for round in 1 2; do
for which in old new; do
  dir=/tmp/w45-old; [ $which = new ] && dir=/work/wt/45
  for engine in embedded server; do
    echo "=== round $round $which $engine $(date -u +%H:%M:%S) $(uptime | sed 's/.*load average/load average/')"
    cd $dir
    if [ $engine = server ]; then
      DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres timeout 400 node bench/import-report.ts --report-runs 10 2>&1 | grep -E "^\| import|by (unit|service|day)|^engine|import total|error|Error" | grep -v "^{"
    else
      timeout 400 node bench/import-report.ts --report-runs 10 2>&1 | grep -E "^\| import|by (unit|service|day)|^engine|import total|error|Error" | grep -v "^{"
    fi
    [ $which = new ] && cp bench/results/$(date -u +%F)-import-report$([ $engine = server ] && echo -server).json /tmp/w45/new-$engine-$round.json
    [ $which = old ] && cp bench/results/$(date -u +%F)-import-report$([ $engine = server ] && echo -server).json /tmp/w45/old-$engine-$round.json
  done
done
done
echo "=== end $(date -u +%H:%M:%S) $(uptime | sed 's/.*load average/load average/')"
