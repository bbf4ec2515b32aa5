import { describe, expect, it } from 'vitest';
import { portFromArgs } from './launch-args';

describe('the launcher’s port option', () => {
  it('reads -p, --port and --port=, and leaves the other arguments to next', () => {
    expect(portFromArgs(['dev', '-p', '3001'])).toEqual({ port: 3001, rest: ['dev'] });
    expect(portFromArgs(['dev', '--port', '3002', '--turbopack'])).toEqual({ port: 3002, rest: ['dev', '--turbopack'] });
    expect(portFromArgs(['start', '--port=3003'])).toEqual({ port: 3003, rest: ['start'] });
    expect(portFromArgs(['dev', '-p3004'])).toEqual({ port: 3004, rest: ['dev'] });
    expect(portFromArgs(['dev'])).toEqual({ port: null, rest: ['dev'] });
  });

  it('says what is wrong with a bad port', () => {
    expect(() => portFromArgs(['dev', '-p'])).toThrow(/-p needs a port number/);
    expect(() => portFromArgs(['dev', '--port', 'abc'])).toThrow(/whole number from 1 to 65535, not "abc"/);
    expect(() => portFromArgs(['dev', '-p', '70000'])).toThrow(/not "70000"/);
  });
});
