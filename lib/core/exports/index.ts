export * from './export-tables';
export { exportDictionaryMarkdown, DICTIONARY_START, DICTIONARY_END } from './dictionary';
