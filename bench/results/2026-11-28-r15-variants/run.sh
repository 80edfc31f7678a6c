#!/bin/bash
r=$(pgbench -h 127.0.0.1 -p 5432 -U postgres -n -M prepared -c 16 -j 2 -T ${3:-8} -f $2 bbo_r15 2>&1)
echo "$1 $(echo "$r" | grep -E '^tps' | awk '{print $3}') failed=$(echo "$r" | grep -E 'failed trans' | awk '{print $5}')"
