/** The browser editor's documentation, built from the registries (see catalog.ts). */
export { authoringCatalog, type AuthoringCatalog, type CriterionKindDoc, type FieldDoc, type FieldScope, type PointFunctionDoc } from './catalog';
