/** `correct:` checks: the schema, the response view and the tree evaluator. */
export * from './schema';
export {
  buildResponseView,
  normaliseToolCall,
  parseContentJson,
  parseTextToolCalls,
  ResponseViewSchema,
  type ResponseInput,
  type ResponseView,
} from './view';
export { describeAssertion, evaluateAssertion, evaluateCorrect, jsonEqual, type CorrectResult, type CorrectStatus } from './evaluate';
