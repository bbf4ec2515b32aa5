import { describe, expect, it } from 'vitest';
import { systemPromptFor, systemPromptsToRun, temperaturesToRun } from './axes';
import { errorsOf, load, where, yaml } from './blueprint.testkit';

describe('header fields (SPEC §2.2)', () => {
  it('reads the documented fields and their aliases', () => {
    const bp = load(yaml`
      configId: legacy-id
      configTitle: Legacy title
      description: About
      author: { name: Jane, url: "https://j" }
      citations: ["A paper", { name: "Another", url: "https://a" }]
      tags: [law, eu]
      models:
        - CORE
        - openrouter:openai/gpt-4o
        - { id: my-bot, url: "https://bot/v1", modelName: bot, inherit: openai, format: chat }
        - { id: our-assistant, url: "https://assistant.example/chat", format: custom, response: { content: "$.reply" } }
      systemPrompt: Be careful.
      temperature: 0.3
      render_as: html
      noCache: true
      concurrency: 4
      evaluationConfig: { judgeModels: [openrouter:google/gemini-pro-1.5] }
      tools: [{ name: search, description: "Search", schema: { type: object } }]
      toolUse: { enabled: true, mode: trace-only, maxSteps: 2 }
      externalServices: { checker: { url: "https://c" } }
      ---
      - prompt: q
    `);
    expect(bp).toMatchObject({
      id: 'legacy-id',
      title: 'Legacy title',
      description: 'About',
      author: { name: 'Jane', url: 'https://j' },
      references: [{ title: 'A paper' }, { title: 'Another', url: 'https://a' }],
      tags: ['law', 'eu'],
      system: 'Be careful.',
      systems: [],
      temperature: 0.3,
      temperatures: null,
      render_as: 'html',
      noCache: true,
      concurrency: 4,
      toolUse: { enabled: true, mode: 'trace-only', maxSteps: 2 },
      extensions: { externalServices: { checker: { url: 'https://c' } } },
    });
    expect(bp.models).toEqual([
      { kind: 'collection', name: 'CORE' },
      { kind: 'id', id: 'openrouter:openai/gpt-4o' },
      { kind: 'custom', id: 'my-bot', spec: { id: 'my-bot', url: 'https://bot/v1', modelName: 'bot', inherit: 'openai', format: 'chat' } },
      { kind: 'custom', id: 'our-assistant', spec: { id: 'our-assistant', url: 'https://assistant.example/chat', format: 'custom', response: { content: '$.reply' } } },
    ]);
    // Prompts inherit render_as and noCache.
    expect(bp.prompts[0]).toMatchObject({ render_as: 'html', noCache: true });
  });

  it('accepts tools in Weval\'s shape and in the OpenAI function-tool shape the providers send', () => {
    const bp = load(yaml`
      tools:
        - { name: search, description: "Search", schema: { type: object } }
        - type: function
          function: { name: get_weather, parameters: { type: object } }
      ---
      - prompt: q
    `);
    expect(bp.tools).toHaveLength(2);
    expect(where(errorsOf('tools: [{ type: function, function: { description: x } }]\n---\n- prompt: q\n'))).toEqual(['1:9 schema']);
  });

  it('rejects what Weval rejects, at the offending node', () => {
    const errors = errorsOf(yaml`
      author: { url: "https://x" }
      references: [{ url: "https://x" }]
      models: [{ id: bot, url: "https://b" }]
      render_as: pdf
    `);
    expect(where(errors)).toEqual(['1:9 schema', '2:14 schema', '3:10 schema', '3:10 schema', '4:12 schema']);
  });
});

describe('run axes, with Weval precedence', () => {
  it('`system` as a list, or `systems`, are variants that replace every prompt system prompt', () => {
    const bp = load('system: [null, "Be kind."]\n---\n- prompt: q\n  system: Own\n');
    expect(bp.systems).toEqual([null, 'Be kind.']);
    expect(systemPromptsToRun(bp)).toEqual([null, 'Be kind.']);
    expect(systemPromptFor(bp, bp.prompts[0]!, 1)).toBe('Be kind.');
  });

  it("a prompt's own system prompt (null = none) overrides the blueprint's single one", () => {
    const bp = load('system: Global\n---\n- prompt: a\n- prompt: b\n  system: Own\n- prompt: c\n  system: null\n');
    expect(systemPromptsToRun(bp)).toEqual(['Global']);
    expect(bp.prompts.map((p) => systemPromptFor(bp, p))).toEqual(['Global', 'Own', null]);
  });

  it('temperatures replace temperature', () => {
    expect(temperaturesToRun(load('temperature: 0.2\n---\n- prompt: q\n'))).toEqual([0.2]);
    expect(temperaturesToRun(load('temperature: 0.2\ntemperatures: [0, 0.7]\n---\n- prompt: q\n'))).toEqual([0, 0.7]);
    expect(temperaturesToRun(load('- prompt: q\n'))).toEqual([null]);
  });
});
