/**
 * Public surface of the point functions (lib/core/index.ts re-exports what outside code may use).
 * - resolve a name as written and validate its argument at load time;
 * - evaluate a resolved function safely (negation, clamping, errors never a 0);
 * - the sandbox adapter the server and CLI create once and pass as `PointContext.sandbox`.
 */
export type { ExternalCallPort, FnOutcome, PointContext, PointFunctionDef, RegexEngine, SandboxErrorKind, SandboxPort } from './types';
export { SandboxError } from './types';
export { acceptedNames, listPointFunctions, pointFunctionAliases, resolvePointFunction, type Resolution } from './registry';
export { checkPointArgs, evaluatePoint, runPointFunction, type ArgsCheck } from './evaluate';
export { compilePattern, testPattern, type Compiled, type CompiledPattern, type PatternTest } from '../untrusted';
export { foldCase, nfc } from './text/normalize';
export { createQuickJsSandbox, type QuickJsSandbox, type QuickJsSandboxOptions } from './sandbox/quickjs';
export {
  budgetedSandbox,
  SANDBOX_BUDGET_DEFAULTS,
  sandboxTimeEstimateMs,
  SandboxTimeBudget,
  type BudgetScope,
  type SandboxBudgetLimits,
} from './sandbox/budget';
export { mayUseSandbox, usesSandbox } from './sandbox/needs-sandbox';
