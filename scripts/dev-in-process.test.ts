import { describe, expect, it } from 'vitest';
import { inProcessOptions } from './dev-in-process';

describe('inProcessOptions', () => {
  it('takes no options, or a host name in any of next’s spellings', () => {
    expect(inProcessOptions([])).toEqual({ hostname: null });
    expect(inProcessOptions(['-H', '0.0.0.0'])).toEqual({ hostname: '0.0.0.0' });
    expect(inProcessOptions(['--hostname', '::'])).toEqual({ hostname: '::' });
    expect(inProcessOptions(['--hostname=127.0.0.1'])).toEqual({ hostname: '127.0.0.1' });
  });

  it('leaves any other next dev option, or a host name without its value, to next’s own CLI', () => {
    expect(inProcessOptions(['--experimental-https'])).toBeNull();
    expect(inProcessOptions(['-H', 'localhost', '--webpack'])).toBeNull();
    expect(inProcessOptions(['-H'])).toBeNull();
  });
});
