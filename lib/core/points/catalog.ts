/** Every point-function definition, one module per family. The registry indexes this list. */
import { externalFunctions } from './functions/external';
import { jsFunctions } from './functions/js';
import { jsonFunctions } from './functions/json';
import { listFunctions } from './functions/lists';
import { patternFunctions } from './functions/patterns';
import { stringFunctions } from './functions/strings';
import { toolFunctions } from './functions/tools';
import { wordFunctions } from './functions/words';
import type { PointFunctionDef } from './types';

export const CATALOG: readonly PointFunctionDef<unknown>[] = [
  ...stringFunctions,
  ...patternFunctions,
  ...listFunctions,
  ...wordFunctions,
  ...jsonFunctions,
  ...jsFunctions,
  ...toolFunctions,
  ...externalFunctions,
];
