// The one database port, implemented by the pg adapter on a PostgreSQL server or on the embedded
// PostgreSQL (embedded-postgres.adapter.ts). Rows come back as plain JSON values: instants as ISO strings, dates as
// YYYY-MM-DD, bigint and numeric as numbers (see value-parsers.ts).

export type Row = Record<string, any>;

export interface QueryResult<T extends Row = Row> {
  rows: T[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * The best plan depends on the values (a text pattern, a store of any size): plan every call for
   * its own values instead of letting the server settle on one generic plan for the statement.
   */
  planPerCall?: boolean;
  /**
   * How long to wait for the answer before failing as unavailable, in place of the adapter's read
   * timeout (15 s, for requests). A migration's statement may rewrite a large table for longer.
   */
  readTimeoutMs?: number;
}

/** A handle that can run SQL: the database itself, or an open transaction. */
export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
}

/** Inside a transaction this is the only handle in scope. */
export type Tx = Queryable;

export interface Database extends Queryable {
  readonly engine: 'pg';
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (migrations). */
  exec(sql: string): Promise<void>;
  /** Cheap round trip used by /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
