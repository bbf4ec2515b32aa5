import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodeUnits, unstorableOffset } from './text';

// eslint-disable-next-line no-control-regex -- U+0000 is what it looks for
const REFERENCE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('unstorableOffset', () => {
  it('finds the first NUL or unpaired surrogate, as the reference regex does (native shortcut included)', () => {
    const unit = fc.oneof(fc.constantFrom('a', 'é', '\u0000', '\uD83D', '\uDE00', '\uD83D\uDE00', '\n', '💡'), fc.string({ maxLength: 3 }));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(unstorableOffset(text)).toBe(REFERENCE.exec(text)?.index ?? -1);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('compareCodeUnits', () => {
  it('orders by UTF-16 code unit, whatever the locale: capitals first, accents after z', () => {
    expect(['é', 'b', 'B', 'a', 'z', 'a'].sort(compareCodeUnits)).toEqual(['B', 'a', 'a', 'b', 'z', 'é']);
  });
});
