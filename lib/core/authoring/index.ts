/** The form view's model of a blueprint and its edits (docs/authoring.md), pure and browser-safe. */
export { readForm, type FormModel, type FormReading, type FormView, type FormHeader, type FormPrompt, type FormPoint, type FormPointKind, type FormQuestion, type FormLayout, type PointBlock } from './form-model';
export { editForm, FormEditError, type FormEdit, type HeaderField, type PromptField, type PointField } from './form-edits';
export * from './pull-request';
/** The browser editor's documentation, built from the registries (see catalog.ts). */
export { authoringCatalog, type AuthoringCatalog, type CriterionKindDoc, type FieldDoc, type FieldScope, type PointFunctionDoc } from './catalog';
