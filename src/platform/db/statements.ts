// A .sql file as the statements it holds, so migrations and function files run statement by
// statement inside one transaction on both engines.

/**
 * Splits on lines that end a statement with ";" (dollar-quoted bodies are kept whole). A comment
 * line that ends with ";" also ends one, harmlessly: a part that is only comments is dropped.
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    const dollars = line.match(/\$\$/g)?.length ?? 0;
    if (dollars % 2 === 1) inDollar = !inDollar;
    current += line + '\n';
    if (!inDollar && /;\s*(--.*)?$/.test(line)) {
      if (current.replace(/--.*$/gm, '').trim()) out.push(current.trim());
      current = '';
    }
  }
  if (current.replace(/--.*$/gm, '').trim()) out.push(current.trim());
  return out;
}
