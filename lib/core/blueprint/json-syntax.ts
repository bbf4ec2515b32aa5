/**
 * Finds the first JSON syntax error and its offset. `JSON.parse` decides validity (as Weval
 * does), but its messages often carry no position ("Unexpected token '}', …"), and an author
 * needs a line and column; this small recursive-descent scan supplies them.
 */
export interface JsonSyntaxError {
  offset: number;
  message: string;
}

export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const fail = (message: string): never => {
    throw { offset: Math.min(i, text.length), message } satisfies JsonSyntaxError;
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const expect = (ch: string, what: string) => {
    if (text[i] !== ch) fail(`expected ${what}${found()}`);
    i++;
  };
  const found = () => (i >= text.length ? ' but the text ended' : ` but found ${JSON.stringify(text[i])}`);

  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') return object();
    if (ch === '[') return array();
    if (ch === '"') return string();
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    fail(`expected a value${found()}`);
  };
  const object = () => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') fail(`expected a double-quoted property name${found()}`);
      string();
      ws();
      expect(':', "':' after the property name");
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      expect('}', "',' or '}' after the property value");
      return;
    }
  };
  const array = () => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      expect(']', "',' or ']' after the array element");
      return;
    }
  };
  const string = () => {
    i++;
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        const esc = text[i + 1];
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('invalid \\u escape in a string');
          i += 6;
          continue;
        }
        if (esc === undefined || !'"\\/bfnrt'.includes(esc)) fail(`invalid escape \\${esc ?? ''} in a string`);
        i += 2;
        continue;
      }
      if (ch < ' ') fail('unescaped control character (e.g. a raw newline) in a string');
      i++;
    }
    fail('unterminated string');
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === '-') fail('invalid number');
    i += m![0].length;
  };

  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${JSON.stringify(text[i])} after the end of the JSON value`);
    return null;
  } catch (e) {
    if (e && typeof e === 'object' && 'offset' in e) return e as JsonSyntaxError;
    throw e;
  }
}
