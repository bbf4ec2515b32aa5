import { describe, expect, it } from 'vitest';
import { redactSealedSource } from './redact-sealed';

describe('redactSealedSource', () => {
  it('returns a file without sealed prompts unchanged, byte for byte', () => {
    const text = 'title: T # comment\nprompts:\n  - id: a\n    prompt:   "spacing kept"\n';
    expect(redactSealedSource(text)).toBe(text);
  });

  it('takes the text, points and id out of every sealed prompt and marks where it was', () => {
    const text = [
      'title: T',
      'prompts:',
      '  - id: visible',
      '    prompt: keep me',
      '  - id: secret-key',
      '    split: test',
      '    prompt: SECRET TEXT',
      '    should: [SECRET POINT]',
      '---',
      '- id: other',
      "  split: 'test'",
      '  messages: [{user: SECRET TWO}]',
      '',
    ].join('\n');
    const out = redactSealedSource(text) ?? '';
    expect(out).toContain('keep me');
    expect(out).not.toMatch(/SECRET|secret-key|other/);
    expect(out.match(/sealed test prompt/g)).toHaveLength(2);
  });

  it('redacts JSON blueprints too', () => {
    const out = redactSealedSource('{"prompts":[{"id":"x","split":"test","prompt":"SECRET"},{"id":"y","prompt":"open"}]}') ?? '';
    expect(out).not.toContain('SECRET');
    expect(out).toContain('open');
  });

  it('shows nothing of a file that does not parse but mentions a test split', () => {
    expect(redactSealedSource('prompts:\n  - split: test\n    prompt: [unclosed')).toBeNull();
  });
});
