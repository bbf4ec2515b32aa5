'use client';
/**
 * The form view of the blueprint being edited (docs/authoring.md): its header, its prompts and each
 * prompt's points (kind, weight, gate, citation; judge questions with their levels/options).
 * The form is read from the YAML (`readForm`) and every edit is a splice of the YAML (`editForm`),
 * so comments and layout outside the edited node are the author's own; the new text goes to
 * `onChange`. A field commits on Enter or when it loses focus (a checkbox at once).
 *
 * Fast on big files: the form re-reads the editor's text when the typing pauses (its own edits at
 * once), the parser runs only when a prompt needs its hash id, and a prompt's points are rendered
 * only while its section is open.
 */
import { useEffect, useMemo, useState } from 'react';
import { parse as parseYaml } from 'yaml';
import { editForm, FormEditError, readForm, type FormEdit, type FormHeader, type FormPoint, type FormPrompt } from '@/lib/core';
import { pathNames } from '@/lib/views/score-breakdown';
import { muted } from '../ui';

export interface FormViewProps {
  /** The YAML text in the editor. */
  yaml: string;
  /** Called with the new YAML after an edit in the form (untouched parts keep comments and layout). */
  onChange: (yaml: string) => void;
}

const input = 'w-full rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900';
const small = 'w-20 rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900';
const button = 'rounded border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800';

export function FormView({ yaml, onChange }: FormViewProps) {
  // Typing in the editor re-reads the form once the typing pauses; the form's own edits at once.
  const [own, setOwn] = useState<string | null>(null);
  const text = useSettled(yaml, yaml === own ? 0 : SETTLE_MS);
  const reading = useMemo(() => (text.trim() === '' ? null : readForm(text)), [text]);
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set([0]));

  if (reading === null) return <FormShell><p className={`text-sm ${muted}`}>Nothing to show yet: write or load a blueprint.</p></FormShell>;
  if (!reading.ok && 'unsupported' in reading) {
    return (
      <FormShell>
        <p role="status" className="text-sm">
          {reading.unsupported}
        </p>
      </FormShell>
    );
  }
  if (!reading.ok) {
    return (
      <FormShell>
        <p role="status" className="text-sm">
          The YAML does not parse (line {reading.line}, column {reading.col}: {reading.message}), so there is nothing to edit here. Fix it in the editor; the form comes back when it parses.
        </p>
      </FormShell>
    );
  }
  const model = reading.model;
  const apply = (edit: FormEdit) => {
    // the form may lag the editor while the author types: an edit applies to the latest text
    const latest = text === yaml ? reading : readForm(yaml);
    if (!latest.ok) return setProblem('The YAML no longer parses; fix it in the editor first.');
    try {
      const next = editForm(latest.model, edit);
      setProblem(null);
      if (next !== yaml) {
        setOwn(next);
        onChange(next);
      }
    } catch (e) {
      // a FormEditError says what to do; anything else is a bug of the form, not a reason to lose the editor
      setProblem(e instanceof FormEditError ? e.message : `The form could not make this edit (${(e as Error).message}); make it in the YAML.`);
    }
  };
  const toggle = (index: number, isOpen: boolean) =>
    setOpen((current) => {
      const next = new Set(current);
      if (isOpen) next.add(index);
      else next.delete(index);
      return next;
    });

  return (
    <FormShell>
      {problem && (
        <p role="alert" className="rounded bg-amber-100 px-2 py-1 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          {problem}
        </p>
      )}
      {model.view.parses === false && <p className={`text-sm ${muted}`}>The blueprint has errors (see the editor&apos;s problems); prompts without an `id` show no id until it parses.</p>}
      <HeaderFields header={model.view.header} apply={apply} />
      <section aria-label="Prompts" className="space-y-2">
        <h3 className="font-medium">
          Prompts <span className={`text-sm ${muted}`}>({model.view.prompts.length})</span>
        </h3>
        {model.view.prompts.map((prompt) => (
          <PromptSection key={prompt.index} prompt={prompt} open={open.has(prompt.index)} onToggle={(o) => toggle(prompt.index, o)} apply={apply} />
        ))}
        <AddPrompt count={model.view.prompts.length} apply={apply} />
      </section>
    </FormShell>
  );
}

/** How long the editor's text must stay unchanged before the form reads it again (reading a 90 KB file takes ~100 ms). */
const SETTLE_MS = 250;

function useSettled(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (delay === 0) {
      setSettled(value);
      return;
    }
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return delay === 0 ? value : settled;
}

function FormShell({ children }: { children: React.ReactNode }) {
  return (
    <section aria-labelledby="form-view-title" data-testid="form-view" className="space-y-4 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 id="form-view-title" className="text-lg font-semibold tracking-tight">
        Form view
      </h2>
      {children}
    </section>
  );
}

type Apply = (edit: FormEdit) => void;

/** A text field that commits on Enter (Ctrl+Enter in a text area) or blur; re-created when the YAML's value changes. */
function Field({ label, value, onCommit, multiline = false, className = input, type = 'text' }: { label: string; value: string; onCommit: (v: string) => void; multiline?: boolean; className?: string; type?: 'text' | 'number' }) {
  const commit = (v: string) => {
    if (v !== value) onCommit(v);
  };
  if (multiline) {
    return (
      <textarea
        key={value}
        aria-label={label}
        defaultValue={value}
        rows={Math.min(6, Math.max(2, value.split('\n').length))}
        className={className}
        onBlur={(e) => commit(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) commit(e.currentTarget.value);
        }}
      />
    );
  }
  return (
    <input
      key={value}
      aria-label={label}
      type={type}
      {...(type === 'number' ? { step: 0.1, min: 0.1, max: 10 } : {})}
      defaultValue={value}
      className={className}
      onBlur={(e) => commit(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit(e.currentTarget.value);
      }}
    />
  );
}

function Labelled({ text, children }: { text: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1">
      <span className={`text-xs ${muted}`}>{text}</span>
      {children}
    </div>
  );
}

const lines = (v: string) => v.split('\n').map((l) => l.trim()).filter(Boolean);
/** An empty weight removes the key (the default 1); what is not a number is left for the parser to explain. */
const weightOf = (v: string): number | string | null => (v.trim() === '' ? null : Number.isFinite(Number(v)) ? Number(v) : v);

function HeaderFields({ header, apply }: { header: FormHeader | null; apply: Apply }) {
  const h = header ?? { title: null, description: null, author: null, models: [], tags: [], keys: [] };
  const other = h.keys.filter((k) => !['title', 'configTitle', 'description', 'author', 'models', 'tags', 'prompts'].includes(k));
  return (
    <section aria-label="Header" className="grid gap-3 sm:grid-cols-2">
      <Labelled text="Title">
        <Field label="Title" value={h.title ?? ''} onCommit={(v) => apply({ op: 'header', field: 'title', value: v || null })} />
      </Labelled>
      <Labelled text="Author">
        <Field label="Author" value={h.author ?? ''} onCommit={(v) => apply({ op: 'header', field: 'author', value: v || null })} />
      </Labelled>
      <div className="sm:col-span-2">
        <Labelled text="Description">
          <Field label="Description" multiline value={h.description ?? ''} onCommit={(v) => apply({ op: 'header', field: 'description', value: v || null })} />
        </Labelled>
      </div>
      <Labelled text="Models (one per line)">
        <Field label="Models" multiline value={h.models.join('\n')} onCommit={(v) => apply({ op: 'header', field: 'models', value: lines(v) })} />
      </Labelled>
      <Labelled text="Tags (comma-separated)">
        <Field label="Tags" value={h.tags.join(', ')} onCommit={(v) => apply({ op: 'header', field: 'tags', value: v.split(',').map((t) => t.trim()).filter(Boolean) })} />
      </Labelled>
      {other.length > 0 && <p className={`text-xs ${muted} sm:col-span-2`}>Also in the header (edit in the YAML): {other.join(', ')}</p>}
    </section>
  );
}

function PromptSection({ prompt, open, onToggle, apply }: { prompt: FormPrompt; open: boolean; onToggle: (open: boolean) => void; apply: Apply }) {
  const name = prompt.id ?? `#${prompt.index + 1}`;
  const summary = prompt.prompt ?? prompt.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  return (
    <details open={open} onToggle={(e) => onToggle(e.currentTarget.open)} className="rounded border border-zinc-200 p-2 dark:border-zinc-800" data-prompt={name}>
      <summary className="cursor-pointer text-sm">
        <span className="font-mono">{name}</span> <span className={muted}>— {summary.slice(0, 80)}{summary.length > 80 ? '…' : ''} · {prompt.points.length} point{prompt.points.length === 1 ? '' : 's'} · line {prompt.line}</span>
      </summary>
      {open && <PromptBody prompt={prompt} name={name} apply={apply} />}
    </details>
  );
}

function PromptBody({ prompt, name, apply }: { prompt: FormPrompt; name: string; apply: Apply }) {
  const set = (field: Extract<FormEdit, { op: 'prompt' }>['field'], value: string | number | null) => apply({ op: 'prompt', prompt: prompt.index, field, value });
  return (
    <div className="mt-2 space-y-3">
      <div className="grid gap-3 sm:grid-cols-[1fr_6rem]">
        <Labelled text="Id">
          <Field label={`Id of prompt ${name}`} value={prompt.explicitId ? (prompt.id ?? '') : ''} onCommit={(v) => set('id', v || null)} />
        </Labelled>
        <Labelled text="Weight">
          <Field label={`Weight of prompt ${name}`} type="number" className={small} value={prompt.weight === null ? '' : String(prompt.weight)} onCommit={(v) => set('weight', weightOf(v))} />
        </Labelled>
      </div>
      {prompt.messages ? (
        <ol className="space-y-2">
          {prompt.messages.map((m, i) => (
            <li key={i}>
              <Labelled text={m.role}>
                {m.content === null ? <span className={`text-sm ${muted}`}>(generated by the model)</span> : <Field label={`Message ${i + 1} (${m.role}) of prompt ${name}`} multiline value={m.content} onCommit={(v) => apply({ op: 'message', prompt: prompt.index, message: i, value: v })} />}
              </Labelled>
            </li>
          ))}
        </ol>
      ) : (
        <Labelled text="Prompt">
          <Field label={`Text of prompt ${name}`} multiline value={prompt.prompt ?? ''} onCommit={(v) => set('prompt', v)} />
        </Labelled>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <Labelled text="Ideal answer">
          <Field label={`Ideal answer of prompt ${name}`} multiline value={prompt.ideal ?? ''} onCommit={(v) => set('ideal', v || null)} />
        </Labelled>
        <Labelled text="Citation">
          <Field label={`Citation of prompt ${name}`} value={prompt.citation ?? ''} onCommit={(v) => set('citation', v || null)} />
        </Labelled>
      </div>
      <ol aria-label={`Points of prompt ${name}`} className="space-y-2">
        {prompt.points.map((point) => (
          <li key={point.index}>
            <PointFields prompt={prompt} name={name} point={point} apply={apply} />
          </li>
        ))}
      </ol>
      <AddPoint prompt={prompt} name={name} apply={apply} />
      <button type="button" className={button} onClick={() => apply({ op: 'remove-prompt', prompt: prompt.index })}>
        Remove prompt {name}
      </button>
    </div>
  );
}

const KIND_LABEL: Record<FormPoint['kind'], string> = {
  text: 'judged criterion',
  function: 'function',
  ref: 'definition ($ref)',
  question: 'judge question',
  criterion: 'criterion kind',
  correct: 'correct: check',
  invalid: 'not readable',
};

function PointFields({ prompt, name, point, apply }: { prompt: FormPrompt; name: string; point: FormPoint; apply: Apply }) {
  const label = (what: string) => `${what} of point ${point.index + 1} in prompt ${name}`;
  const set = (field: Extract<FormEdit, { op: 'point' }>['field'], value: unknown) => apply({ op: 'point', prompt: prompt.index, point: point.index, field, value });
  const editable = !point.readOnly && point.kind !== 'invalid';
  // paths named as the run pages and the check panel name them ("Path 1"), not by the parser's id
  const paths = pathNames(prompt.points.map((p) => p.path));
  return (
    <div className="rounded border border-zinc-100 p-2 dark:border-zinc-800" data-point={point.index}>
      <p className={`text-xs ${muted}`}>
        {point.index + 1}. {KIND_LABEL[point.kind]}
        {point.block === 'should_not' ? ' · should not' : ''}
        {point.path ? ` · ${paths.get(point.path) ?? point.path} (OR)` : ''} · line {point.line}
        {point.readOnly ? ' · edit in the YAML' : ''}
      </p>
      <div className="mt-1 space-y-2">
        {(point.kind === 'text' || point.kind === 'question') && editable && <Field label={label(point.kind === 'question' ? `Question (${point.question?.type})` : 'Text')} multiline value={point.text ?? ''} onCommit={(v) => set('text', v)} />}
        {point.kind === 'function' && editable && (
          <div className="grid gap-2 sm:grid-cols-[auto_1fr]">
            <span className="font-mono text-sm">${point.fn}</span>
            <ArgsField label={label('Arguments')} value={point.args} onCommit={(v) => set('args', v)} />
          </div>
        )}
        {point.kind === 'ref' && <p className="font-mono text-sm">$ref: {point.fn}</p>}
        {point.kind === 'criterion' && point.criterion && (
          <p className="font-mono text-sm">
            kind: {point.criterion.kind} {Object.keys(point.criterion.params).length > 0 ? JSON.stringify(point.criterion.params) : ''}
          </p>
        )}
        {(point.kind === 'correct' || point.kind === 'invalid') && <pre className="overflow-x-auto text-xs">{JSON.stringify(point.args ?? null)}</pre>}
        {point.question?.levels && editable && (
          <Labelled text="Levels, worst first (one per line)">
            <Field label={label('Levels')} multiline value={point.question.levels.join('\n')} onCommit={(v) => set('levels', lines(v))} />
          </Labelled>
        )}
        {point.question?.options && editable && (
          <Labelled text="Options (one per line: option: credit 0–1, or null for “does not apply”)">
            <Field label={label('Options')} multiline value={Object.entries(point.question.options).map(([k, c]) => `${k}: ${c === null ? 'null' : c}`).join('\n')} onCommit={(v) => set('options', optionsOf(v))} />
          </Labelled>
        )}
        {editable && point.kind !== 'correct' && (
          <div className="flex flex-wrap items-end gap-3">
            <Labelled text="Weight">
              <Field label={label('Weight')} type="number" className={small} value={point.weight === null ? '' : String(point.weight)} onCommit={(v) => set('weight', weightOf(v))} />
            </Labelled>
            <label className="flex items-center gap-1 text-sm">
              <input type="checkbox" aria-label={label('Gate')} checked={point.gate === true} onChange={(e) => set('gate', e.target.checked)} /> gate
            </label>
            <div className="min-w-48 flex-1">
              <Labelled text="Citation">
                <Field label={label('Citation')} value={point.citation ?? ''} onCommit={(v) => set('citation', v || null)} />
              </Labelled>
            </div>
            <button type="button" className={button} onClick={() => apply({ op: 'remove-point', prompt: prompt.index, point: point.index })}>
              Remove point {point.index + 1}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}

function optionsOf(v: string): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const line of lines(v)) {
    const at = line.lastIndexOf(':');
    const key = (at < 0 ? line : line.slice(0, at)).trim();
    const credit = at < 0 ? '' : line.slice(at + 1).trim();
    out[key] = credit === '' || credit === 'null' ? null : Number(credit);
  }
  return out;
}

/** A function's arguments as YAML on one line (`[1, ["a", "b"]]`, `"text"`); bad YAML is said, not committed. */
function ArgsField({ label, value, onCommit }: { label: string; value: unknown; onCommit: (v: unknown) => void }) {
  const [error, setError] = useState<string | null>(null);
  const shown = value === undefined ? '' : JSON.stringify(value);
  return (
    <div>
      <Field
        label={label}
        value={shown}
        onCommit={(v) => {
          try {
            onCommit(v.trim() === '' ? null : parseYaml(v));
            setError(null);
          } catch (e) {
            setError(`These arguments are not YAML: ${(e as Error).message.split('\n')[0]}`);
          }
        }}
      />
      {error && <p role="alert" className="text-xs text-red-700 dark:text-red-300">{error}</p>}
    </div>
  );
}

function AddPoint({ prompt, name, apply }: { prompt: FormPrompt; name: string; apply: Apply }) {
  const [text, setText] = useState('');
  const add = (block: 'should' | 'should_not') => {
    if (text.trim() === '') return;
    apply({ op: 'add-point', prompt: prompt.index, block, text: text.trim() });
    setText('');
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <input aria-label={`New point for prompt ${name}`} placeholder="The reply …" value={text} onChange={(e) => setText(e.target.value)} className={`${input} max-w-md`} />
      <button type="button" className={button} onClick={() => add('should')}>
        Add to should
      </button>
      <button type="button" className={button} onClick={() => add('should_not')}>
        Add to should not
      </button>
    </div>
  );
}

function AddPrompt({ count, apply }: { count: number; apply: Apply }) {
  const [id, setId] = useState('');
  const [text, setText] = useState('');
  return (
    <div className="flex flex-wrap items-center gap-2">
      <input aria-label="New prompt id" placeholder={`prompt-${count + 1}`} value={id} onChange={(e) => setId(e.target.value)} className={`${input} max-w-40`} />
      <input aria-label="New prompt text" placeholder="What the model is asked" value={text} onChange={(e) => setText(e.target.value)} className={`${input} max-w-md`} />
      <button
        type="button"
        className={button}
        onClick={() => {
          if (text.trim() === '') return;
          apply({ op: 'add-prompt', id: id.trim() || `prompt-${count + 1}`, prompt: text.trim() });
          setId('');
          setText('');
        }}
      >
        Add prompt
      </button>
    </div>
  );
}
