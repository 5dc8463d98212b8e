import type Database from 'better-sqlite3';

/**
 * Prepared statements by SQL text. Query text depends only on a query's shape (values are bound),
 * so a small cache serves every query core makes; the bound keeps a caller that builds many
 * shapes from growing it without end. Least recently used is evicted first.
 */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement<unknown[]>>();

  constructor(
    private readonly db: Database.Database,
    private readonly capacity: number,
  ) {}

  /** The prepared statement for `sql`, preparing it on first use. */
  get(sql: string): Database.Statement<unknown[]> {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare<unknown[]>(sql);
      if (this.statements.size >= this.capacity) {
        const oldest = this.statements.keys().next();
        if (oldest.done !== true) this.statements.delete(oldest.value);
      }
    } else {
      this.statements.delete(sql);
    }
    this.statements.set(sql, statement);
    return statement;
  }

  clear(): void {
    this.statements.clear();
  }
}
