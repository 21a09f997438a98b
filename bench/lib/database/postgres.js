'use strict';
// Databases the run creates on the PostgreSQL server and drops: one migrated template, and per cell a fresh copy
// of it (CREATE DATABASE ... TEMPLATE), so every POST cell starts from the same two tasks and no run grows a table.
const crypto = require('node:crypto');
const { Client } = require('pg');

const SERVER_URL = process.env.TRELLIS_BENCH_DATABASE_URL ?? 'postgres://trellis:trellis@127.0.0.1:5432/trellis';

/** `url` with its database name replaced by `name`. */
function urlOf(name, base = SERVER_URL) {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** host:port/db of `url`, never its password (for log lines). */
function describeUrl(url) {
  const { hostname, port, pathname } = new URL(url);
  return `${hostname}:${port || 5432}${pathname}`;
}

/** Runs `sql` on the server's maintenance connection (the database of SERVER_URL). */
async function admin(sql) {
  const client = new Client({ connectionString: SERVER_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL unreachable at ${describeUrl(SERVER_URL)} (${/** @type {Error} */ (error).message}); set TRELLIS_BENCH_DATABASE_URL`);
  }
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const quote = (name) => `"${name.replace(/"/g, '""')}"`;

/**
 * The run's databases on the server: `prefix` names them all (`trellis_bench_<random>`), `dropAll()` removes every
 * one made.
 */
function serverDatabases() {
  const prefix = `trellis_bench_${crypto.randomBytes(4).toString('hex')}`;
  const made = new Set();
  return {
    prefix,
    /** The URL of `<prefix>_<suffix>` (made or not). */
    url: (suffix) => urlOf(`${prefix}_${suffix}`),
    /** Creates an empty database `<prefix>_<suffix>`; resolves to its URL. */
    async create(suffix) {
      const name = `${prefix}_${suffix}`;
      await admin(`create database ${quote(name)}`);
      made.add(name);
      return urlOf(name);
    },
    /** Drops `<prefix>_<suffix>` (if present) and makes it again as a copy of `<prefix>_<template>`; resolves to its URL. */
    async copy(template, suffix) {
      const name = `${prefix}_${suffix}`;
      await admin(`drop database if exists ${quote(name)} with (force)`);
      await admin(`create database ${quote(name)} template ${quote(`${prefix}_${template}`)}`);
      made.add(name);
      return urlOf(name);
    },
    async dropAll() {
      for (const name of made) await admin(`drop database if exists ${quote(name)} with (force)`);
      made.clear();
    },
  };
}

module.exports = { serverDatabases, describeUrl, SERVER_URL };
