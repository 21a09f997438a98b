import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asciiOnly } from '../build/ascii-only';

// Each expression written with characters outside ASCII, and strings it must treat alike after the rewrite.
const CASES: Array<[string, string[]]> = [
  ['/^[A-ZÇƏĞİıÖŞÜ]+$/i', ['ÇƏĞ', 'çəğ', 'ABC', 'ABX1', 'İı', 'é']],
  ['/^[А-Я]+$/i', ['ПРИВЕТ', 'привет', 'HELLO', 'Ё']],
  ['/é/u', ['café', 'cafe', 'CAFÉ']],
  ['/\\é/', ['é', '\\é', 'e']],
  ['/\\\\é/', ['\\é', 'é']],
  ['/^[😀-😂]$/u', ['😀', '😁', '😃', '\ud83d']],
  ['/^😀{2}$/', ['😀😀', '😀\ude00', '\ud83d\ude00\ude00']],
  ['/^[^ß]+$/', ['strasse', 'straße']],
];

describe('asciiOnly', () => {
  it('leaves only ASCII, and every regular expression matches what it matched', () => {
    for (const [literal, inputs] of CASES) {
      const rewritten = asciiOnly(literal);
      assert.match(rewritten, /^[\x00-\x7f]*$/, rewritten);
      const [before, after] = [literal, rewritten].map((code) => new Function(`return ${code};`)() as RegExp);
      assert.equal(after.flags, before.flags);
      for (const input of inputs) assert.equal(after.test(input), before.test(input), `${literal} -> ${rewritten} on ${JSON.stringify(input)}`);
    }
  });

  it('keeps strings, comments and code without such characters as they are', () => {
    const code = "const a = 'caf\\xE9'; // naïve\nconst b = /[a-z]/.test(a);\n";
    assert.equal(asciiOnly(code), "const a = 'caf\\xE9'; // na\\u00efve\nconst b = /[a-z]/.test(a);\n");
    assert.equal(asciiOnly('return 1 + 2;'), 'return 1 + 2;');
    assert.equal(new Function(asciiOnly("return 'Ǆ' + `ß`;"))(), 'Ǆß');
  });
});
