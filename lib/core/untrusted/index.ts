/**
 * Everything that turns untrusted text into something that runs: blueprint and operator regexes
 * (RE2, with the QuickJS sandbox for what RE2 lacks), JSONPath (RFC 9535, no scripts), and regexes
 * that developers build around runtime strings (escaped). The lint rule in eslint.config.mjs
 * refuses `new RegExp(computed)`, `Function`, `eval` and JSONPath libraries elsewhere.
 */
export { checkPattern, combinedEngine, compilePattern, testPattern } from './regex';
export type { Compiled, CompiledPattern, PatternTest, RegexEngine } from './regex';
export { compileLinear } from './linear';
export type { LinearCompiled, LinearPattern } from './linear';
export { compileJsonPath, selectJsonPath, wevalHint } from './jsonpath';
export type { CompiledJsonPath, JsonPathCompiled } from './jsonpath';
export { alternatives, escapeRegExp, fragment, literal, pattern, sourceOf, withFlags } from './pattern';
export type { Fragment } from './pattern';
