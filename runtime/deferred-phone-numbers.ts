import Module from 'node:module';
import { dirname } from 'node:path';

/**
 * Defers libphonenumber-js (about 530 KiB of code and metadata, some 45 ms of a start) until a phone number is
 * validated. class-validator requires `libphonenumber-js/max` when it loads, for `@IsPhoneNumber` alone; this
 * puts in its place in the module cache a stand-in that loads the real module on first use (a property read or a
 * call) and forwards to it, so class-validator, and any code that requires the same file, get what it exports.
 * Done when this module is imported (runtime/index.ts imports it first, before the framework loads class-validator);
 * nothing is done once the module is loaded, or when either package is not found.
 *
 * @example
 * ```ts
 * deferPhoneNumbers();
 * require('class-validator'); // libphonenumber-js not loaded yet
 * ```
 */
export function deferPhoneNumbers(): void {
  let file: string;
  try {
    // What class-validator's `require('libphonenumber-js/max')` finds: looked up from class-validator's folder.
    const validator = dirname(require.resolve('class-validator/package.json'));
    file = require.resolve('libphonenumber-js/max', { paths: [validator] });
  } catch {
    return;
  }
  if (require.cache[file]) return;
  let real: Record<PropertyKey, unknown> & ((...args: unknown[]) => unknown);
  const load = () => {
    if (!real) {
      if (require.cache[file] === standIn) delete require.cache[file];
      real = require(file) as typeof real;
    }
    return real;
  };
  const standIn = new Module(file);
  standIn.filename = file;
  standIn.loaded = true;
  // Its exports are a function (parsePhoneNumberFromString) with the named exports as properties.
  standIn.exports = new Proxy(() => undefined, {
    get: (_target, key) => load()[key],
    has: (_target, key) => key in load(),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
      // A proxy may not report a non-configurable property its (empty) target lacks.
      return descriptor && { ...descriptor, configurable: true };
    },
    apply: (_target, self, args) => Reflect.apply(load(), self, args),
  });
  require.cache[file] = standIn;
}

deferPhoneNumbers();
