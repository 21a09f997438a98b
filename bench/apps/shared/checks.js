'use strict';
// Hand-written validation and query conversion for the contenders without a validation layer of their
// own (raw node:http, Express, Hono): the checks class-validator / JSON schema do elsewhere, no more.

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function toInt(text) {
  return INTEGER.test(text) ? Number(text) : undefined;
}

function toFloat(text) {
  return NUMBER.test(text) ? Number(text) : undefined;
}

/**
 * `get(name)` reads one query value (string or undefined). Returns `{ query }` with the converted
 * search parameters and their defaults, or `{ errors }` naming each bad field.
 */
function searchQuery(get) {
  const errors = [];
  const q = get('q');
  if (q === undefined) errors.push({ field: 'q', message: 'Field required' });
  const number = (name, convert, fallback) => {
    const text = get(name);
    if (text === undefined) return fallback;
    const value = convert(text);
    if (value === undefined) errors.push({ field: name, message: 'Invalid number' });
    return value;
  };
  const query = {
    q,
    category: get('category') ?? null,
    min_price: number('min_price', toFloat, null),
    max_price: number('max_price', toFloat, null),
    sort: get('sort') ?? 'name',
    page: number('page', toInt, 1),
    limit: number('limit', toInt, 20),
  };
  return errors.length ? { errors } : { query };
}

/** The TaskIn rules: title string 1-100 required, description string optional, completed boolean optional. */
function taskErrors(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return [{ field: '', message: 'Input should be an object' }];
  }
  const errors = [];
  const { title, description, completed } = body;
  if (typeof title !== 'string') errors.push({ field: 'title', message: 'title must be a string' });
  else if (title.length < 1 || title.length > 100) {
    errors.push({ field: 'title', message: 'title must be longer than or equal to 1 and shorter than or equal to 100 characters' });
  }
  if (description !== undefined && typeof description !== 'string') {
    errors.push({ field: 'description', message: 'description must be a string' });
  }
  if (completed !== undefined && typeof completed !== 'boolean') {
    errors.push({ field: 'completed', message: 'completed must be a boolean value' });
  }
  return errors;
}

module.exports = { searchQuery, taskErrors, toInt };
