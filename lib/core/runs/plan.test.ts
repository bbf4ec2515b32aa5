import { describe, expect, it } from 'vitest';
import { load, yaml } from '../blueprint/blueprint.testkit';
import { planGenerations } from './plan';

describe('planGenerations with variants', () => {
  const bp = load(yaml`
    systems: ["Be brief.", null]
    ---
    - id: deadline
      prompt: What is the deadline to object?
      variants:
        informal: "how long do i have to object??"
        two_turns: ["I got a decision.", "How long can I object?"]
    - id: plain
      prompt: Hello
  `);

  it('gives each cell its variants as conversations of their own; cells and keys are as without variants', () => {
    const cells = planGenerations(bp, { models: ['m1', 'm2'], repeats: 2, maxPrompts: null });
    // 2 prompts × 2 models × 2 system prompts × 2 attempts: variants add no cells.
    expect(cells).toHaveLength(16);
    expect(cells.filter((c) => c.promptKey === 'plain').every((c) => c.variants.length === 0)).toBe(true);
    const first = cells.find((c) => c.promptKey === 'deadline' && c.systemIndex === 0)!;
    expect(first.key).toBe('deadline|m1|0|0|0');
    expect(first.variants).toEqual([
      { name: 'informal', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'how long do i have to object??' }] },
      {
        name: 'two_turns',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'I got a decision.' },
          { role: 'assistant', content: null },
          { role: 'user', content: 'How long can I object?' },
        ],
      },
    ]);
    // The second system prompt is `null`: no system turn in the variant either.
    const noSystem = cells.find((c) => c.promptKey === 'deadline' && c.systemIndex === 1)!;
    expect(noSystem.variants[0]!.messages).toEqual([{ role: 'user', content: 'how long do i have to object??' }]);
  });
});
