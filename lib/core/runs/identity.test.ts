import { describe, expect, it } from 'vitest';
import { runIdentity } from './identity';
import type { RunSettings } from './plan';

const settings: RunSettings = { models: ['openai:m'], judges: [{ model: 'openai:j', approach: 'standard' }], repeats: null, maxPrompts: null, judgeSamples: 3, customModels: {} };
const id = (s: RunSettings) => runIdentity({ contentHash: 'c', settings: s, parserVersion: 'p' });

describe('run identity and the judging mode', () => {
  it('a batched run is not identical to a per-point one; per-point keeps the identity it had before the mode existed', () => {
    expect(id({ ...settings, judgeMode: 'batched' })).not.toBe(id(settings));
    expect(id({ ...settings, judgeMode: 'per-point' })).toBe(id(settings));
    // the hash main's runIdentity gave these settings before judgeMode existed
    expect(id(settings)).toBe('2ba8c9abb71824adbb8255fa5ac8134f09b9c31a839c6db924a15a9b8132faea');
  });
});
