'use client';
/** STUB (issue 16, "form" helper replaces it): the form view of the blueprint being edited. */
export interface FormViewProps {
  /** The YAML text in the editor. */
  yaml: string;
  /** Called with the new YAML after an edit in the form (untouched parts keep comments and layout). */
  onChange: (yaml: string) => void;
}

export function FormView({ yaml }: FormViewProps) {
  return <p data-stub="form-view">Form view: {yaml.length} characters.</p>;
}
