'use strict';
// A Kysely dialect for PGlite, as docs/design/database.md tried it and trellis/database implements it: one
// connection, handed out exclusively (a transaction spans several calls). The Fastify peer needs its own copy:
// trellis exports no dialect, and the peer must not load trellis. Built on the Kysely given (the sample's, see open.js).

/**
 * The dialect class on `kysely`'s adapter, compiler and introspector.
 * @param {typeof import('kysely')} kysely
 */
function definePGliteDialect({ CompiledQuery, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler }) {
  class PGliteConnection {
    /** @param {import('@electric-sql/pglite').PGlite} client */
    constructor(client) {
      this.client = client;
    }

    /** @param {import('kysely').CompiledQuery} query */
    async executeQuery(query) {
      const result = await this.client.query(query.sql, [...query.parameters]);
      return result.affectedRows !== undefined && result.affectedRows !== null
        ? { rows: result.rows, numAffectedRows: BigInt(result.affectedRows) }
        : { rows: result.rows };
    }

    // eslint-disable-next-line require-yield
    async *streamQuery() {
      throw new Error('PGlite: streaming is not supported');
    }
  }

  class PGliteDriver {
    /** @param {import('@electric-sql/pglite').PGlite} client */
    constructor(client) {
      this.client = client;
      this.connection = new PGliteConnection(client);
      this.busy = false;
      /** @type {Array<() => void>} */
      this.waiting = [];
    }

    async init() {
      await this.client.waitReady;
    }

    async acquireConnection() {
      if (this.busy) await new Promise((resolve) => this.waiting.push(() => resolve(undefined)));
      this.busy = true;
      return this.connection;
    }

    async releaseConnection() {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy = false;
    }

    /** @param {import('kysely').DatabaseConnection} connection @param {import('kysely').TransactionSettings} settings */
    async beginTransaction(connection, settings) {
      await connection.executeQuery(CompiledQuery.raw(settings.isolationLevel ? `start transaction isolation level ${settings.isolationLevel}` : 'begin'));
    }

    /** @param {import('kysely').DatabaseConnection} connection */
    async commitTransaction(connection) {
      await connection.executeQuery(CompiledQuery.raw('commit'));
    }

    /** @param {import('kysely').DatabaseConnection} connection */
    async rollbackTransaction(connection) {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    }

    async destroy() {
      await this.client.close();
    }
  }

  class PGliteDialect {
    /** @param {import('@electric-sql/pglite').PGlite} client */
    constructor(client) {
      this.client = client;
    }

    createAdapter() {
      return new PostgresAdapter();
    }

    createDriver() {
      return /** @type {import('kysely').Driver} */ (new PGliteDriver(this.client));
    }

    createQueryCompiler() {
      return new PostgresQueryCompiler();
    }

    /** @param {import('kysely').Kysely<any>} db */
    createIntrospector(db) {
      return new PostgresIntrospector(db);
    }
  }

  return PGliteDialect;
}

module.exports = { definePGliteDialect };
