import { describe, expect, it } from 'vitest';
import { redactSealedSource } from './redact-sealed';

describe('redactSealedSource', () => {
  it('returns a file without sealed prompts unchanged, byte for byte', () => {
    const text = 'title: T # comment\nprompts:\n  - id: a\n    prompt:   "spacing kept"\n';
    expect(redactSealedSource(text, 't.yml')).toBe(text);
  });

  it('takes the text, points and id out of every sealed prompt and says how many are hidden', () => {
    const text = [
      'title: T',
      'prompts:',
      '  - id: visible',
      '    prompt: keep me',
      '  - id: secret-key',
      '    split: test',
      '    prompt: SECRET TEXT',
      '    should: [SECRET POINT]',
      '  - id: other',
      "    split: 'test'",
      '    messages: [{user: SECRET TWO}]',
      '',
    ].join('\n');
    const out = redactSealedSource(text, 't.yml') ?? '';
    expect(out).toContain('keep me');
    expect(out).not.toMatch(/SECRET|secret-key|other/);
    expect(out).toMatch(/^# 2 sealed test prompts are hidden/);
  });

  it('redacts JSON blueprints too', () => {
    const out = redactSealedSource('{"prompts":[{"id":"x","split":"test","prompt":"SECRET"},{"id":"y","prompt":"open"}]}', 'b.json') ?? '';
    expect(out).not.toContain('SECRET');
    expect(out).toContain('open');
  });

  it('shows nothing of a file that does not parse but mentions a test split', () => {
    expect(redactSealedSource('prompts:\n  - split: test\n    prompt: [unclosed', 't.yml')).toBeNull();
  });

  it('shows a file that does not parse and cannot hold a sealed prompt, so its author can fix it', () => {
    const text = 'prompts:\n  - prompt: [unclosed';
    expect(redactSealedSource(text, 't.yml')).toBe(text);
  });
});
