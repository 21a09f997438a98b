import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * PGlite's one connection, handed out to one holder at a time: Kysely holds it for a query, or for a whole
 * transaction, so nothing else runs between a transaction's statements. Several Kysely instances may share it
 * (the test databases, each in its own schema): `schema`, when given, is set as the `search_path` each time the
 * connection passes to a holder that wants another one.
 */
export class PGliteConnection implements DatabaseConnection {
  #busy = false;
  readonly #waiting: Array<() => void> = [];
  #schema: string | undefined;

  constructor(readonly client: PGlite) {}

  async acquire(schema: string | undefined): Promise<PGliteConnection> {
    if (this.#busy) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#busy = true;
    if (schema !== undefined && schema !== this.#schema) {
      try {
        await this.client.query(`set search_path to "${schema}"`);
      } catch (error) {
        this.release();
        throw error;
      }
      this.#schema = schema;
    }
    return this;
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#busy = false;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.client.query<R>(query.sql, [...query.parameters]);
    return result.affectedRows !== undefined && result.affectedRows !== null
      ? { rows: result.rows, numAffectedRows: BigInt(result.affectedRows) }
      : { rows: result.rows };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite: streaming query results is not supported');
  }
}

/** How a {@link PGliteDialect} gets its connection (opened on the first query) and gives it back when destroyed. */
export interface PGliteSource {
  open(): Promise<PGliteConnection>;
  /** The `search_path` this instance's queries run under; undefined leaves it alone. */
  schema?: string;
  close(): Promise<void>;
}

class PGliteDriver implements Driver {
  #connection: PGliteConnection | undefined;

  constructor(private readonly source: PGliteSource) {}

  async init(): Promise<void> {
    this.#connection = await this.source.open();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection!.acquire(this.source.schema);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PGliteConnection).release();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    const mode = settings.accessMode ? ` ${settings.accessMode}` : '';
    await connection.executeQuery(CompiledQuery.raw(`start transaction${level}${mode}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    await this.source.close();
  }
}

/**
 * A Kysely dialect for PGlite (no published one fits pglite 0.5 and hands its connection out exclusively: see
 * docs/design/database.md). PostgreSQL's adapter, compiler and introspector; the connection of `source`.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly source: PGliteSource) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.source);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
