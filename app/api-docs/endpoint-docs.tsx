/** One endpoint of the API docs page: its path, what it answers, its parameters and its answer's fields. */
import type { DocsEndpoint, DocsField } from '@/lib/views/api-v1/docs-view';
import { Cell, Table, muted } from '@/components/ui';

function Fields({ label, fields }: { label: string; fields: DocsField[] }) {
  return (
    <Table label={label} head={['name', 'type', 'always there', 'meaning']}>
      {fields.map((f) => (
        <tr key={f.name}>
          <Cell mono>{f.name}</Cell>
          <Cell mono>{f.type}</Cell>
          <Cell>{f.required ? 'yes' : 'no'}</Cell>
          <Cell>{f.description}</Cell>
        </tr>
      ))}
    </Table>
  );
}

export function EndpointDocs({ endpoint }: { endpoint: DocsEndpoint }) {
  return (
    <section id={endpoint.id} aria-labelledby={`${endpoint.id}-h`} className="space-y-3">
      <h2 id={`${endpoint.id}-h`} className="font-mono text-base font-semibold">
        {endpoint.method} {endpoint.path}
      </h2>
      <p className="text-sm">{endpoint.description}</p>
      <p className={`text-sm ${muted}`}>Answers: {endpoint.statuses.join(', ')}</p>
      {endpoint.parameters.length > 0 && <Fields label={`parameters of ${endpoint.path}`} fields={endpoint.parameters} />}
      {endpoint.body.length > 0 && <Fields label={`body fields of ${endpoint.method} ${endpoint.path}`} fields={endpoint.body} />}
      {endpoint.fields.length > 0 && <Fields label={`answer fields of ${endpoint.method} ${endpoint.path}`} fields={endpoint.fields} />}
    </section>
  );
}
