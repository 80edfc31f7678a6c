// Counts round trips to the database: every statement is one, and a transaction adds two more
// (BEGIN and COMMIT or ROLLBACK). Wrap the Database an app is built on, then read take() after a
// request to see how many it cost. Used to pin the one-statement writes (docs/architecture.md).
import type { Database, Tx } from '../../src/platform/db/port.ts';

export interface CountingDatabase {
  db: Database;
  /** Round trips since the last take(), the statements' first words and their whole text, in order. */
  take(): { trips: number; statements: string[]; sql: string[] };
}

export function countingDatabase(inner: Database): CountingDatabase {
  let statements: string[] = [];
  let texts: string[] = [];
  const note = (sql: string) => {
    statements.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
    texts.push(sql);
  };
  const wrap = (q: Tx): Tx => ({
    query(sql, params, options) {
      note(sql);
      return q.query(sql, params, options);
    },
  });
  const db: Database = {
    engine: inner.engine,
    query(sql, params, options) {
      note(sql);
      return inner.query(sql, params, options);
    },
    transaction(fn) {
      note('BEGIN');
      return inner.transaction((tx) => fn(wrap(tx))).finally(() => note('COMMIT'));
    },
    exec: (sql) => inner.exec(sql),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  return {
    db,
    take() {
      const out = { trips: statements.length, statements, sql: texts };
      statements = [];
      texts = [];
      return out;
    },
  };
}
