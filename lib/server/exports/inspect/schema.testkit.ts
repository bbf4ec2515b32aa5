/** Ajv over the vendored EvalLog schema (eval-log.schema.json, draft 2020-12), for the tests of the Inspect export. */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import schema from './eval-log.schema.json';

export function evalLogValidator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return (log: unknown): string[] => (validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`));
}
