#!/bin/bash
T=${3:-8}
r=$(pgbench -h /tmp/embsock -p 5499 -U postgres -n -M prepared -c 16 -j 2 -T $T -f $2 postgres 2>&1)
echo "$1 $(echo "$r" | grep -E '^tps' | awk '{print $3}') failed=$(echo "$r" | grep -E 'failed trans' | awk '{print $5}')"
